-- Visit counts that respect visitors (issue 38, decision 060): page views per page and per day,
-- and searches per day (the words of a search that found nothing, normalized), aggregated in
-- memory and added here every few seconds; each day's total and each page's month beside them,
-- so a year's chart reads 365 rows and a year's most viewed pages mostly months. No cookie, no address, no identifier: a row says how
-- many, never who.
CREATE TABLE "visit_counts" (
	"day" date NOT NULL,
	"path" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "visit_counts_day_path_pk" PRIMARY KEY("day","path")
);
--> statement-breakpoint
CREATE INDEX "visit_counts_path_day_idx" ON "visit_counts" USING btree ("path","day");
--> statement-breakpoint
CREATE TABLE "visit_days" (
	"day" date PRIMARY KEY NOT NULL,
	"views" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visit_months" (
	"month" date NOT NULL,
	"path" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "visit_months_month_path_pk" PRIMARY KEY("month","path")
);
--> statement-breakpoint
CREATE TABLE "search_counts" (
	"day" date NOT NULL,
	"found" boolean NOT NULL,
	"query" text NOT NULL,
	"searches" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "search_counts_day_found_query_pk" PRIMARY KEY("day","found","query")
);
