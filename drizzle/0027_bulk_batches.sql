-- A bulk action's undo (issue 35): what one Apply changed and what to put back, for a few minutes.
CREATE TABLE "bulk_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"entity" text NOT NULL,
	"action" text NOT NULL,
	"items" jsonb NOT NULL,
	"undone_at" timestamp with time zone
);--> statement-breakpoint
ALTER TABLE "bulk_batches" ADD CONSTRAINT "bulk_batches_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_batches_at_idx" ON "bulk_batches" USING btree ("at");
