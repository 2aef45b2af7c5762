-- Console list speed (issue 11, decision 015): counts per category from an index, the exhibits'
-- "contains" title search from trigram indexes instead of reading every row, and the subscribers'
-- name search by prefix from indexes (the email already had one), as for members.
CREATE INDEX "exhibits_category_idx" ON "exhibits" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "exhibits_title_trgm_idx" ON "exhibits" USING gin ("title" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "exhibits_short_title_trgm_idx" ON "exhibits" USING gin ("short_title" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "subscribers_first_name_prefix_idx" ON "subscribers" USING btree (lower("first_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "subscribers_last_name_prefix_idx" ON "subscribers" USING btree (lower("last_name") text_pattern_ops);