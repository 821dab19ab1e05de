CREATE TABLE "denial_counts" (
	"event_id" uuid NOT NULL,
	"day" integer NOT NULL,
	"reason" text NOT NULL,
	"shard" smallint NOT NULL,
	"denials" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "denial_counts_pkey" PRIMARY KEY("event_id","day","reason","shard")
);
--> statement-breakpoint
ALTER TABLE "denial_counts" ADD CONSTRAINT "denial_counts_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;