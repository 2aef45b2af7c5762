-- Search, second step (decision 014): a lexicon of the public words for "Did you mean" (replacing
-- the similarity scan over every title, which cost milliseconds per typo), and smaller rows.
CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
DROP INDEX "search_documents_suggest_idx";--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
-- The public words of every document (titles, names, team, category), learned as documents are
-- written. Words of member-only texts are never added: a correction must not reveal them.
CREATE FUNCTION search_words_learn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word)
  SELECT DISTINCT w
  FROM new_rows d,
       unnest(tsvector_to_array(to_tsvector('simple', lower(museum_unaccent(
         d.title || ' ' || d.alt_title || ' ' || d.names || ' ' || d.team_names || ' ' || d.category_name))))) AS w
  WHERE length(w) >= 3
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER search_words_inserted AFTER INSERT ON search_documents REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_words_learn();--> statement-breakpoint
CREATE TRIGGER search_words_updated AFTER UPDATE ON search_documents REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_words_learn();--> statement-breakpoint
INSERT INTO search_words (word)
SELECT DISTINCT w
FROM search_documents d,
     unnest(tsvector_to_array(to_tsvector('simple', lower(museum_unaccent(
       d.title || ' ' || d.alt_title || ' ' || d.names || ' ' || d.team_names || ' ' || d.category_name))))) AS w
WHERE length(w) >= 3
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Keep each search document's row small, so that reading the rows a word
-- matches touches few pages. The member-only text and its vector, read only for a page of
-- snippets or a few ranks, live out of line (EXTERNAL, uncompressed: no decompression when read);
-- the vectors read for every match stay in the row and are never compressed before those two
-- have moved out (MAIN). With the target at 1 KB a document's row is about 400 bytes.
ALTER TABLE search_documents
  ALTER COLUMN body SET STORAGE EXTERNAL,
  ALTER COLUMN member_vector SET STORAGE EXTERNAL,
  ALTER COLUMN public_vector SET STORAGE MAIN,
  ALTER COLUMN suggest_vector SET STORAGE MAIN,
  ALTER COLUMN suggest_text SET STORAGE MAIN;--> statement-breakpoint
-- Rows already written keep their layout until they change (a demo collection is small).
ALTER TABLE search_documents SET (toast_tuple_target = 1024);
