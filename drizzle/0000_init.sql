CREATE TABLE "banner_slides" (
	"variant" text NOT NULL,
	"position" integer NOT NULL,
	"file" text NOT NULL,
	"alt" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	CONSTRAINT "banner_slides_variant_position_pk" PRIMARY KEY("variant","position")
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"category_name" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "categories_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "enshrinee_exhibits" (
	"enshrinee_id" uuid NOT NULL,
	"exhibit_id" uuid NOT NULL,
	CONSTRAINT "enshrinee_exhibits_enshrinee_id_exhibit_id_pk" PRIMARY KEY("enshrinee_id","exhibit_id")
);
--> statement-breakpoint
CREATE TABLE "enshrinees" (
	"id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"full_name" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"biography" text NOT NULL,
	CONSTRAINT "enshrinees_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "exhibit_photos" (
	"exhibit_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"file" text NOT NULL,
	"alt" text NOT NULL,
	CONSTRAINT "exhibit_photos_exhibit_id_position_pk" PRIMARY KEY("exhibit_id","position")
);
--> statement-breakpoint
CREATE TABLE "exhibits" (
	"id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"team_id" uuid NOT NULL,
	"category_id" uuid NOT NULL,
	"title" text NOT NULL,
	"short_title" text NOT NULL,
	"description" text NOT NULL,
	"thumbnail" text NOT NULL,
	"thumbnail_alt" text NOT NULL,
	"matching_photo" text,
	"matching_photo_alt" text,
	"active" boolean DEFAULT true NOT NULL,
	"year" integer NOT NULL,
	"favorite_story" boolean DEFAULT false NOT NULL,
	CONSTRAINT "exhibits_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"league" text NOT NULL,
	"logo" text NOT NULL,
	"headline" text NOT NULL,
	"description" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "teams_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"email_opt_in" boolean DEFAULT false NOT NULL,
	"terms_accepted_at" timestamp with time zone,
	"valid_through" date,
	"role" text DEFAULT 'member' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "enshrinee_exhibits" ADD CONSTRAINT "enshrinee_exhibits_enshrinee_id_enshrinees_id_fk" FOREIGN KEY ("enshrinee_id") REFERENCES "public"."enshrinees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enshrinee_exhibits" ADD CONSTRAINT "enshrinee_exhibits_exhibit_id_exhibits_id_fk" FOREIGN KEY ("exhibit_id") REFERENCES "public"."exhibits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibit_photos" ADD CONSTRAINT "exhibit_photos_exhibit_id_exhibits_id_fk" FOREIGN KEY ("exhibit_id") REFERENCES "public"."exhibits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibits" ADD CONSTRAINT "exhibits_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibits" ADD CONSTRAINT "exhibits_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exhibits_team_category_idx" ON "exhibits" USING btree ("team_id","category_id","active");--> statement-breakpoint
CREATE INDEX "exhibits_favorite_idx" ON "exhibits" USING btree ("favorite_story");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));