ALTER TABLE "tickets" DROP CONSTRAINT "tickets_code_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_code_upper_key" ON "tickets" USING btree (upper("code"));