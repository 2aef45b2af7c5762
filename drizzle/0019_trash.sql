CREATE TABLE "trash" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"record_id" text NOT NULL,
	"label" text NOT NULL,
	"snapshot" jsonb NOT NULL,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"deleted_at" timestamp with time zone NOT NULL,
	"deleted_by" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "trash_deleted_at_idx" ON "trash" USING btree ("deleted_at");--> statement-breakpoint
CREATE INDEX "trash_record_idx" ON "trash" USING btree ("kind","record_id");
