-- Staff and members (issue 35, decision 049): a member invited to the staff keeps her own account.
-- `member_account` marks an account that is a member's own whatever its staff role: it stays under
-- Members, and deactivating its staff access leaves its member access. Accounts that signed up
-- (terms accepted) are members' own, including those an earlier invitation made staff at once.
ALTER TABLE "users" ADD COLUMN "member_account" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "users" SET "member_account" = true WHERE "role" = 'member' OR "terms_accepted_at" IS NOT NULL;--> statement-breakpoint
-- An invitation to a member's account: the role is granted only when she accepts it, signed in.
CREATE TABLE "staff_invitations" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"invited_by" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_invitations_user_idx" ON "staff_invitations" USING btree ("user_id");
