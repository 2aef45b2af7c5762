-- Search, third step (decision 014, "Facets from one integer"): each search document points to the
-- combination of its filter values (kind, teams, category, decade, favorite story), a row of
-- search_facet_groups, so a search groups its hits by one integer, then reads the few thousand
-- combinations, instead of grouping every hit by five values, one of them an array.
CREATE TABLE "search_facet_groups" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "search_facet_groups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"team_ids" uuid[] NOT NULL,
	"category_id" uuid,
	"decade" integer,
	"favorite_story" boolean NOT NULL,
	CONSTRAINT "search_facet_groups_values_key" UNIQUE NULLS NOT DISTINCT("kind","team_ids","category_id","decade","favorite_story")
);
--> statement-breakpoint
INSERT INTO search_facet_groups (kind, team_ids, category_id, decade, favorite_story)
SELECT DISTINCT kind, team_ids, category_id, decade, favorite_story FROM search_documents;--> statement-breakpoint
ALTER TABLE "search_documents" ADD COLUMN "facet_group" integer;--> statement-breakpoint
UPDATE search_documents d SET facet_group = g.id
FROM search_facet_groups g
WHERE g.kind = d.kind AND g.team_ids = d.team_ids AND g.category_id IS NOT DISTINCT FROM d.category_id
  AND g.decade IS NOT DISTINCT FROM d.decade AND g.favorite_story = d.favorite_story;--> statement-breakpoint
ALTER TABLE "search_documents" ALTER COLUMN "facet_group" SET NOT NULL;--> statement-breakpoint
-- Every document written (by the refresh functions of 0005, in the same transaction as the change
-- to the collection) gets its combination's number, the combination added when it is new. The
-- decade is computed here: a BEFORE trigger sees generated columns before they are.
CREATE FUNCTION search_documents_facet_group() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE doc_decade integer := (NEW.year / 10) * 10;
BEGIN
  SELECT g.id INTO NEW.facet_group FROM search_facet_groups g
  WHERE g.kind = NEW.kind AND g.team_ids = NEW.team_ids AND g.category_id IS NOT DISTINCT FROM NEW.category_id
    AND g.decade IS NOT DISTINCT FROM doc_decade AND g.favorite_story = NEW.favorite_story;
  IF NEW.facet_group IS NULL THEN
    -- Another transaction may add the same combination at once: the constraint decides, and the
    -- no-op update returns its id either way.
    INSERT INTO search_facet_groups AS g (kind, team_ids, category_id, decade, favorite_story)
    VALUES (NEW.kind, NEW.team_ids, NEW.category_id, doc_decade, NEW.favorite_story)
    ON CONFLICT ON CONSTRAINT search_facet_groups_values_key DO UPDATE SET kind = excluded.kind
    RETURNING g.id INTO NEW.facet_group;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER search_documents_facet_group BEFORE INSERT OR UPDATE ON search_documents FOR EACH ROW EXECUTE FUNCTION search_documents_facet_group();
