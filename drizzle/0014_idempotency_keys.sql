CREATE TABLE "idempotency_keys" (
	"route" text NOT NULL,
	"owner" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" integer NOT NULL,
	"body" jsonb NOT NULL,
	"ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_route_owner_key_pk" PRIMARY KEY("route","owner","key")
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");