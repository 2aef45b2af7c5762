-- "Did you mean" learns only what is visible now (issue 35, decision 047). The lexicon learned every
-- document's words, a scheduled record's too, and forgot none: a correction offered the title
-- words of records scheduled for later, made drafts again or sent to the trash. Now each
-- document's words are kept with it (search_document_words, with its publish time), written and
-- removed by triggers as documents are written and deleted (a draft or a trashed record has no
-- document); search_words holds each word once with the earliest publish time of the documents
-- that have it, and a correction takes only the words whose time has passed (search-service.ts):
-- a scheduled record's words appear at its time without anything being written.
CREATE TABLE "search_document_words" (
	"word" text NOT NULL,
	"document_id" uuid NOT NULL,
	"publish_at" timestamp with time zone NOT NULL,
	CONSTRAINT "search_document_words_pkey" PRIMARY KEY ("word", "document_id")
);
--> statement-breakpoint
CREATE INDEX "search_document_words_document_idx" ON "search_document_words" USING btree ("document_id");--> statement-breakpoint
ALTER TABLE "search_words" ADD COLUMN "visible_from" timestamp with time zone DEFAULT '1970-01-01T00:00:00Z' NOT NULL;--> statement-breakpoint
DROP TRIGGER search_words_inserted ON search_documents;--> statement-breakpoint
DROP TRIGGER search_words_updated ON search_documents;--> statement-breakpoint
DROP FUNCTION search_words_learn();--> statement-breakpoint
-- The words of a document's public text (titles, names, team, category: never the member-only
-- text), as the lexicon folds them.
CREATE FUNCTION search_lexicon_words(title text, alt_title text, names text, team_names text, category_name text) RETURNS SETOF text LANGUAGE sql STABLE AS $$
  SELECT DISTINCT w
  FROM unnest(tsvector_to_array(to_tsvector('simple', lower(museum_unaccent(
         title || ' ' || alt_title || ' ' || names || ' ' || team_names || ' ' || category_name))))) AS w
  WHERE length(w) >= 3
$$;--> statement-breakpoint
-- Sets each word of `touched` from the documents that have it now: the earliest publish time, or
-- gone when no document has it any more.
CREATE FUNCTION search_words_settle(touched text[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM search_words s
  WHERE s.word = ANY(touched) AND NOT EXISTS (SELECT 1 FROM search_document_words w WHERE w.word = s.word);
  INSERT INTO search_words (word, visible_from)
  SELECT w.word, min(w.publish_at) FROM search_document_words w WHERE w.word = ANY(touched) GROUP BY w.word
  ON CONFLICT (word) DO UPDATE SET visible_from = excluded.visible_from
  WHERE search_words.visible_from IS DISTINCT FROM excluded.visible_from;
$$;--> statement-breakpoint
-- One function for the three statement triggers: the old rows' words go, the new rows' words come.
CREATE FUNCTION search_words_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched text[] := '{}';
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    WITH gone AS (
      DELETE FROM search_document_words w USING old_rows o WHERE w.document_id = o.id RETURNING w.word
    )
    SELECT coalesce(array_agg(DISTINCT gone.word), '{}') INTO touched FROM gone;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    WITH learned AS (
      INSERT INTO search_document_words (word, document_id, publish_at)
      SELECT w, d.id, d.publish_at FROM new_rows d, search_lexicon_words(d.title, d.alt_title, d.names, d.team_names, d.category_name) AS w
      ON CONFLICT (word, document_id) DO UPDATE SET publish_at = excluded.publish_at
      RETURNING word
    )
    SELECT touched || coalesce(array_agg(DISTINCT learned.word), '{}') INTO touched FROM learned;
  END IF;
  IF cardinality(touched) > 0 THEN
    PERFORM search_words_settle(touched);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER search_words_inserted AFTER INSERT ON search_documents REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_words_changed();--> statement-breakpoint
CREATE TRIGGER search_words_updated AFTER UPDATE ON search_documents REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_words_changed();--> statement-breakpoint
CREATE TRIGGER search_words_deleted AFTER DELETE ON search_documents REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_words_changed();--> statement-breakpoint
-- The words learned so far are forgotten and learned again from the documents there now.
INSERT INTO search_document_words (word, document_id, publish_at)
SELECT w, d.id, d.publish_at FROM search_documents d, search_lexicon_words(d.title, d.alt_title, d.names, d.team_names, d.category_name) AS w
ON CONFLICT DO NOTHING;--> statement-breakpoint
DELETE FROM search_words;--> statement-breakpoint
INSERT INTO search_words (word, visible_from)
SELECT w.word, min(w.publish_at) FROM search_document_words w GROUP BY w.word;
