/* 
    Unfortunately in current drizzle-kit version we can't automatically get name for primary key.
    We are working on making it available!

    Meanwhile you can:
        1. Check pk name in your database, by running
            SELECT constraint_name FROM information_schema.table_constraints
            WHERE table_schema = 'public'
                AND table_name = 'check_ins'
                AND constraint_type = 'PRIMARY KEY';
        2. Uncomment code below and paste pk name manually
        
    Hope to release this update as soon as possible
*/

-- ALTER TABLE "check_ins" DROP CONSTRAINT "<constraint_name>";--> statement-breakpoint
/* 
    Unfortunately in current drizzle-kit version we can't automatically get name for primary key.
    We are working on making it available!

    Meanwhile you can:
        1. Check pk name in your database, by running
            SELECT constraint_name FROM information_schema.table_constraints
            WHERE table_schema = 'public'
                AND table_name = 'offline_scans'
                AND constraint_type = 'PRIMARY KEY';
        2. Uncomment code below and paste pk name manually
        
    Hope to release this update as soon as possible
*/

-- ALTER TABLE "offline_scans" DROP CONSTRAINT "<constraint_name>";--> statement-breakpoint
/* 
    Unfortunately in current drizzle-kit version we can't automatically get name for primary key.
    We are working on making it available!

    Meanwhile you can:
        1. Check pk name in your database, by running
            SELECT constraint_name FROM information_schema.table_constraints
            WHERE table_schema = 'public'
                AND table_name = 'scan_log'
                AND constraint_type = 'PRIMARY KEY';
        2. Uncomment code below and paste pk name manually
        
    Hope to release this update as soon as possible
*/

-- ALTER TABLE "scan_log" DROP CONSTRAINT "<constraint_name>";--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_pkey" PRIMARY KEY("event_id","id");--> statement-breakpoint
ALTER TABLE "offline_scans" ADD CONSTRAINT "offline_scans_pkey" PRIMARY KEY("event_id","scan_id");--> statement-breakpoint
ALTER TABLE "scan_log" ADD CONSTRAINT "scan_log_pkey" PRIMARY KEY("event_id","id");--> statement-breakpoint
ALTER TABLE "offline_scans" ADD CONSTRAINT "offline_scans_conflicting_check_in_fk" FOREIGN KEY ("event_id","conflicting_check_in_id") REFERENCES "public"."check_ins"("event_id","id") ON DELETE no action ON UPDATE no action;