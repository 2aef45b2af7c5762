-- Search (issue 14, decision 014). Hand-written parts around drizzle-kit's table: the extensions,
-- the text search configuration and the function the generated columns use come first; the
-- triggers that keep search_documents in step with the collection, and the first fill, last.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- English with accents removed before stemming: "Márquez" and "marquez" are one word.
CREATE TEXT SEARCH CONFIGURATION museum_search (COPY = english);--> statement-breakpoint
-- unaccent() is only STABLE (it reads a dictionary by name); a generated column needs an IMMUTABLE
-- function, so this wrapper names the dictionary by its schema, whichever schema the extension is in.
DO $$
DECLARE ext_schema text;
BEGIN
  SELECT n.nspname INTO ext_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent';
  EXECUTE format('ALTER TEXT SEARCH CONFIGURATION museum_search ALTER MAPPING FOR hword, hword_part, word WITH %I.unaccent, english_stem', ext_schema);
  EXECUTE format(
    'CREATE FUNCTION museum_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS %L',
    format('SELECT %I.unaccent(%L::regdictionary, $1)', ext_schema, ext_schema || '.unaccent')
  );
END $$;--> statement-breakpoint
CREATE TABLE "search_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"alt_title" text DEFAULT '' NOT NULL,
	"names" text DEFAULT '' NOT NULL,
	"team_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"team_names" text DEFAULT '' NOT NULL,
	"category_id" uuid,
	"category_name" text DEFAULT '' NOT NULL,
	"year" integer,
	"favorite_story" boolean DEFAULT false NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"decade" integer GENERATED ALWAYS AS ((year / 10) * 10) STORED,
	"public_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('museum_search', title || ' ' || alt_title || ' ' || names), 'A') || setweight(to_tsvector('museum_search', team_names || ' ' || category_name), 'B')) STORED NOT NULL,
	"member_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('museum_search', title || ' ' || alt_title || ' ' || names), 'A') || setweight(to_tsvector('museum_search', team_names || ' ' || category_name), 'B') || setweight(to_tsvector('museum_search', body), 'C')) STORED NOT NULL,
	"suggest_text" text GENERATED ALWAYS AS (lower(museum_unaccent(title || ' ' || alt_title))) STORED NOT NULL,
	"suggest_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', lower(museum_unaccent(title || ' ' || alt_title)))) STORED NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_documents_public_idx" ON "search_documents" USING gin ("public_vector") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "search_documents_member_idx" ON "search_documents" USING gin ("member_vector") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "search_documents_suggest_idx" ON "search_documents" USING gin ("suggest_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "search_documents_suggest_words_idx" ON "search_documents" USING gin ("suggest_vector") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "enshrinee_exhibits_exhibit_idx" ON "enshrinee_exhibits" USING btree ("exhibit_id");--> statement-breakpoint
-- One search document per active exhibit: its words, its enshrinees' names, team and category.
-- A row whose words did not change is left alone (no index churn).
CREATE FUNCTION search_refresh_exhibits(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM search_documents d
  WHERE d.id = ANY(ids) AND d.kind = 'exhibit' AND NOT EXISTS (SELECT 1 FROM exhibits e WHERE e.id = d.id AND e.active);
  INSERT INTO search_documents AS d (id, kind, title, alt_title, names, team_ids, team_names, category_id, category_name, year, favorite_story, body)
  SELECT e.id, 'exhibit', e.title, e.short_title,
         coalesce((SELECT string_agg(n.full_name, ' ' ORDER BY n.full_name)
                   FROM enshrinee_exhibits l JOIN enshrinees n ON n.id = l.enshrinee_id WHERE l.exhibit_id = e.id), ''),
         ARRAY[e.team_id], t.name, e.category_id, c.category_name, e.year, e.favorite_story, e.description
  FROM exhibits e JOIN teams t ON t.id = e.team_id JOIN categories c ON c.id = e.category_id
  WHERE e.id = ANY(ids) AND e.active
  ON CONFLICT (id) DO UPDATE SET
    kind = excluded.kind, title = excluded.title, alt_title = excluded.alt_title, names = excluded.names,
    team_ids = excluded.team_ids, team_names = excluded.team_names, category_id = excluded.category_id,
    category_name = excluded.category_name, year = excluded.year, favorite_story = excluded.favorite_story, body = excluded.body
  WHERE (d.kind, d.title, d.alt_title, d.names, d.team_ids, d.team_names, d.category_id, d.category_name, d.year, d.favorite_story, d.body)
    IS DISTINCT FROM (excluded.kind, excluded.title, excluded.alt_title, excluded.names, excluded.team_ids, excluded.team_names,
                      excluded.category_id, excluded.category_name, excluded.year, excluded.favorite_story, excluded.body);
$$;--> statement-breakpoint
-- One search document per enshrinee: the name, the biography, and the teams and earliest year of
-- the active exhibits that mention them.
CREATE FUNCTION search_refresh_enshrinees(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM search_documents d
  WHERE d.id = ANY(ids) AND d.kind = 'enshrinee' AND NOT EXISTS (SELECT 1 FROM enshrinees n WHERE n.id = d.id);
  INSERT INTO search_documents AS d (id, kind, title, alt_title, names, team_ids, team_names, category_id, category_name, year, favorite_story, body)
  SELECT n.id, 'enshrinee', n.full_name, n.first_name || ' ' || n.last_name, '',
         coalesce(array_agg(DISTINCT e.team_id) FILTER (WHERE e.id IS NOT NULL), '{}'::uuid[]),
         coalesce(string_agg(DISTINCT t.name, ' ' ORDER BY t.name), ''),
         NULL, '', min(e.year), false, n.biography
  FROM enshrinees n
  LEFT JOIN enshrinee_exhibits l ON l.enshrinee_id = n.id
  LEFT JOIN exhibits e ON e.id = l.exhibit_id AND e.active
  LEFT JOIN teams t ON t.id = e.team_id
  WHERE n.id = ANY(ids)
  GROUP BY n.id
  ON CONFLICT (id) DO UPDATE SET
    kind = excluded.kind, title = excluded.title, alt_title = excluded.alt_title, names = excluded.names,
    team_ids = excluded.team_ids, team_names = excluded.team_names, category_id = excluded.category_id,
    category_name = excluded.category_name, year = excluded.year, favorite_story = excluded.favorite_story, body = excluded.body
  WHERE (d.kind, d.title, d.alt_title, d.names, d.team_ids, d.team_names, d.category_id, d.category_name, d.year, d.favorite_story, d.body)
    IS DISTINCT FROM (excluded.kind, excluded.title, excluded.alt_title, excluded.names, excluded.team_ids, excluded.team_names,
                      excluded.category_id, excluded.category_name, excluded.year, excluded.favorite_story, excluded.body);
$$;--> statement-breakpoint
-- Statement triggers with transition tables: a bulk change refreshes its rows in one pass.
CREATE FUNCTION search_exhibits_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids uuid[];
BEGIN
  IF TG_OP = 'DELETE' THEN SELECT array_agg(id) INTO ids FROM old_rows;
  ELSE SELECT array_agg(id) INTO ids FROM new_rows;
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM search_refresh_exhibits(ids);
    -- An enshrinee's teams and year come from their exhibits.
    PERFORM search_refresh_enshrinees(ARRAY(SELECT DISTINCT l.enshrinee_id FROM enshrinee_exhibits l WHERE l.exhibit_id = ANY(ids)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION search_enshrinees_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids uuid[];
BEGIN
  IF TG_OP = 'DELETE' THEN SELECT array_agg(id) INTO ids FROM old_rows;
  ELSE SELECT array_agg(id) INTO ids FROM new_rows;
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM search_refresh_enshrinees(ids);
    -- An exhibit is found by the names of its enshrinees.
    PERFORM search_refresh_exhibits(ARRAY(SELECT DISTINCT l.exhibit_id FROM enshrinee_exhibits l WHERE l.enshrinee_id = ANY(ids)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION search_links_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE exhibit_ids uuid[]; enshrinee_ids uuid[];
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    SELECT array_agg(exhibit_id), array_agg(enshrinee_id) INTO exhibit_ids, enshrinee_ids FROM old_rows;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT coalesce(exhibit_ids, '{}') || array_agg(exhibit_id), coalesce(enshrinee_ids, '{}') || array_agg(enshrinee_id)
      INTO exhibit_ids, enshrinee_ids FROM new_rows;
  END IF;
  IF exhibit_ids IS NOT NULL THEN
    PERFORM search_refresh_exhibits(ARRAY(SELECT DISTINCT unnest(exhibit_ids)));
    PERFORM search_refresh_enshrinees(ARRAY(SELECT DISTINCT unnest(enshrinee_ids)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A renamed team or category renames it in every document that shows it.
CREATE FUNCTION search_teams_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids uuid[];
BEGIN
  SELECT array_agg(n.id) INTO ids FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.name IS DISTINCT FROM o.name;
  IF ids IS NOT NULL THEN
    PERFORM search_refresh_exhibits(ARRAY(SELECT e.id FROM exhibits e WHERE e.team_id = ANY(ids)));
    PERFORM search_refresh_enshrinees(ARRAY(SELECT DISTINCT l.enshrinee_id FROM enshrinee_exhibits l JOIN exhibits e ON e.id = l.exhibit_id WHERE e.team_id = ANY(ids)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION search_categories_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids uuid[];
BEGIN
  SELECT array_agg(n.id) INTO ids FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.category_name IS DISTINCT FROM o.category_name;
  IF ids IS NOT NULL THEN
    PERFORM search_refresh_exhibits(ARRAY(SELECT e.id FROM exhibits e WHERE e.category_id = ANY(ids)));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER search_exhibits_inserted AFTER INSERT ON exhibits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_exhibits_changed();--> statement-breakpoint
CREATE TRIGGER search_exhibits_updated AFTER UPDATE ON exhibits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_exhibits_changed();--> statement-breakpoint
CREATE TRIGGER search_exhibits_deleted AFTER DELETE ON exhibits REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_exhibits_changed();--> statement-breakpoint
CREATE TRIGGER search_enshrinees_inserted AFTER INSERT ON enshrinees REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_enshrinees_changed();--> statement-breakpoint
CREATE TRIGGER search_enshrinees_updated AFTER UPDATE ON enshrinees REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_enshrinees_changed();--> statement-breakpoint
CREATE TRIGGER search_enshrinees_deleted AFTER DELETE ON enshrinees REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_enshrinees_changed();--> statement-breakpoint
CREATE TRIGGER search_links_inserted AFTER INSERT ON enshrinee_exhibits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_links_changed();--> statement-breakpoint
CREATE TRIGGER search_links_updated AFTER UPDATE ON enshrinee_exhibits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_links_changed();--> statement-breakpoint
CREATE TRIGGER search_links_deleted AFTER DELETE ON enshrinee_exhibits REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_links_changed();--> statement-breakpoint
CREATE TRIGGER search_teams_updated AFTER UPDATE ON teams REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_teams_changed();--> statement-breakpoint
CREATE TRIGGER search_categories_updated AFTER UPDATE ON categories REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_categories_changed();--> statement-breakpoint
-- The collection already in the database becomes searchable now.
SELECT search_refresh_exhibits(ARRAY(SELECT id FROM exhibits));--> statement-breakpoint
SELECT search_refresh_enshrinees(ARRAY(SELECT id FROM enshrinees));
