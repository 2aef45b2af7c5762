-- Banner slides get an identity of their own (issue 24, decisions 029 and 030): a slide's edit
-- form names the slide it started from, so a save against a banner changed since (a slide moved,
-- removed or edited by someone else) is compared with that slide, wherever it is now, and the
-- banner's versions can tell an edited slide from a moved, added or removed one. Positions stay
-- the key of the order; existing slides get their id here.
ALTER TABLE "banner_slides" ADD COLUMN "id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "banner_slides_id_idx" ON "banner_slides" USING btree ("id");
