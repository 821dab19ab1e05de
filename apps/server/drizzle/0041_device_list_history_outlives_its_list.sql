-- A device's stay at a check-in list outlives the list (docs/decisions/162): a device moved off a list that is then deleted
-- may still upload what it admitted there before it was told of the move, judged by this row. The
-- event's foreign key stays (a deleted event takes its devices' history with it).
ALTER TABLE "device_list_history" DROP CONSTRAINT "device_list_history_check_in_list_fk";
