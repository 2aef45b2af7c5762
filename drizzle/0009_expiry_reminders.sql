CREATE TABLE "ticket_reminders" (
	"user_id" uuid NOT NULL,
	"last_day" date NOT NULL,
	"offset_days" integer NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_reminders_user_id_last_day_offset_days_pk" PRIMARY KEY("user_id","last_day","offset_days")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "reminder_emails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_reminders" ADD CONSTRAINT "ticket_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;