CREATE TABLE "media_chunks" (
	"key" text NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "media_chunks_key_seq_pk" PRIMARY KEY("key","seq")
);
--> statement-breakpoint
CREATE TABLE "media_objects" (
	"key" text PRIMARY KEY NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"chunks" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media_chunks" ADD CONSTRAINT "media_chunks_key_media_objects_key_fk" FOREIGN KEY ("key") REFERENCES "public"."media_objects"("key") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
-- Photos are already compressed: store the chunks out of line without trying to compress them again.
ALTER TABLE "media_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;
