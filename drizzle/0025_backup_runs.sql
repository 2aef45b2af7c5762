-- Backups (issue 34, decision 046): each one taken by `npm run backup`, by the schedule or before
-- an upgrade migrates, with its outcome, for the console's Overview and /metrics. The rows name
-- files on the machine that wrote them, so a backup does not carry this table's rows.
CREATE TABLE "backup_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reason" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text NOT NULL,
	"file" text,
	"bytes" bigint,
	"error" text
);--> statement-breakpoint
CREATE INDEX "backup_runs_started_at_idx" ON "backup_runs" USING btree ("started_at");
