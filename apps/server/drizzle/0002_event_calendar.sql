ALTER TABLE "events" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "day_cutoff" time DEFAULT '06:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "allows_scanning_outside_days" boolean DEFAULT false NOT NULL;