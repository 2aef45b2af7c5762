-- The media library (issue 38, decision 061): one row per image the media store holds, with its
-- pixel size and file size read from the file, and its own description (alt text). Rows are
-- added for files the store holds (uploads, seeded files, older uploads) when the library is
-- read, and removed with the file.
CREATE TABLE "media_library" (
	"key" text PRIMARY KEY NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"alt" text DEFAULT '' NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "media_library_added_at_idx" ON "media_library" USING btree ("added_at");
