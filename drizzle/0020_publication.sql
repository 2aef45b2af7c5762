-- Drafts and scheduled publishing (issue 24, decision 032). One column per record: publish_at is
-- when the record appears for visitors and members; NULL is a draft. Records already there are
-- published (since the epoch), and so is a record written without the column (the seed).
-- The rule "visible to the public now" is publish_at <= now (server/catalog/publication.ts).
ALTER TABLE "exhibits" ADD COLUMN "publish_at" timestamp with time zone DEFAULT '1970-01-01T00:00:00Z';--> statement-breakpoint
ALTER TABLE "enshrinees" ADD COLUMN "publish_at" timestamp with time zone DEFAULT '1970-01-01T00:00:00Z';--> statement-breakpoint
ALTER TABLE "banner_slides" ADD COLUMN "publish_at" timestamp with time zone DEFAULT '1970-01-01T00:00:00Z';--> statement-breakpoint
UPDATE "exhibits" SET "publish_at" = '1970-01-01T00:00:00Z' WHERE "publish_at" IS NULL;--> statement-breakpoint
UPDATE "enshrinees" SET "publish_at" = '1970-01-01T00:00:00Z' WHERE "publish_at" IS NULL;--> statement-breakpoint
UPDATE "banner_slides" SET "publish_at" = '1970-01-01T00:00:00Z' WHERE "publish_at" IS NULL;--> statement-breakpoint
-- The scheduler looks for the publish times that passed since its last run.
CREATE INDEX "exhibits_publish_at_idx" ON "exhibits" USING btree ("publish_at");--> statement-breakpoint
CREATE INDEX "enshrinees_publish_at_idx" ON "enshrinees" USING btree ("publish_at");--> statement-breakpoint
-- Search: a draft has no search document at all (its words never reach the spelling lexicon); a
-- scheduled record has one, with its publish time, and each search keeps the documents whose
-- time has passed. An enshrinee's teams and years, and an exhibit's names, come from the records
-- visible when the document was refreshed (the scheduler refreshes them when a time passes).
ALTER TABLE "search_documents" ADD COLUMN "publish_at" timestamp with time zone NOT NULL DEFAULT '1970-01-01T00:00:00Z';--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_refresh_exhibits(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM search_documents d
  WHERE d.id = ANY(ids) AND d.kind = 'exhibit' AND NOT EXISTS (SELECT 1 FROM exhibits e WHERE e.id = d.id AND e.active AND e.publish_at IS NOT NULL);
  INSERT INTO search_documents AS d (id, kind, title, alt_title, names, team_ids, team_names, category_id, category_name, year, favorite_story, body, publish_at)
  SELECT e.id, 'exhibit', e.title, e.short_title,
         coalesce((SELECT string_agg(n.full_name, ' ' ORDER BY n.full_name)
                   FROM enshrinee_exhibits l JOIN enshrinees n ON n.id = l.enshrinee_id
                   WHERE l.exhibit_id = e.id AND n.publish_at <= now()), ''),
         ARRAY[e.team_id], t.name, e.category_id, c.category_name, e.year, e.favorite_story, e.description, e.publish_at
  FROM exhibits e JOIN teams t ON t.id = e.team_id JOIN categories c ON c.id = e.category_id
  WHERE e.id = ANY(ids) AND e.active AND e.publish_at IS NOT NULL
  ON CONFLICT (id) DO UPDATE SET
    kind = excluded.kind, title = excluded.title, alt_title = excluded.alt_title, names = excluded.names,
    team_ids = excluded.team_ids, team_names = excluded.team_names, category_id = excluded.category_id,
    category_name = excluded.category_name, year = excluded.year, favorite_story = excluded.favorite_story, body = excluded.body,
    publish_at = excluded.publish_at
  WHERE (d.kind, d.title, d.alt_title, d.names, d.team_ids, d.team_names, d.category_id, d.category_name, d.year, d.favorite_story, d.body, d.publish_at)
    IS DISTINCT FROM (excluded.kind, excluded.title, excluded.alt_title, excluded.names, excluded.team_ids, excluded.team_names,
                      excluded.category_id, excluded.category_name, excluded.year, excluded.favorite_story, excluded.body, excluded.publish_at);
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_refresh_enshrinees(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM search_documents d
  WHERE d.id = ANY(ids) AND d.kind = 'enshrinee' AND NOT EXISTS (SELECT 1 FROM enshrinees n WHERE n.id = d.id AND n.publish_at IS NOT NULL);
  INSERT INTO search_documents AS d (id, kind, title, alt_title, names, team_ids, team_names, category_id, category_name, year, favorite_story, body, publish_at)
  SELECT n.id, 'enshrinee', n.full_name, n.first_name || ' ' || n.last_name, '',
         coalesce(array_agg(DISTINCT e.team_id) FILTER (WHERE e.id IS NOT NULL), '{}'::uuid[]),
         coalesce(string_agg(DISTINCT t.name, ' ' ORDER BY t.name), ''),
         NULL, '', min(e.year), false, n.biography, n.publish_at
  FROM enshrinees n
  LEFT JOIN enshrinee_exhibits l ON l.enshrinee_id = n.id
  LEFT JOIN exhibits e ON e.id = l.exhibit_id AND e.active AND e.publish_at <= now()
  LEFT JOIN teams t ON t.id = e.team_id
  WHERE n.id = ANY(ids) AND n.publish_at IS NOT NULL
  GROUP BY n.id
  ON CONFLICT (id) DO UPDATE SET
    kind = excluded.kind, title = excluded.title, alt_title = excluded.alt_title, names = excluded.names,
    team_ids = excluded.team_ids, team_names = excluded.team_names, category_id = excluded.category_id,
    category_name = excluded.category_name, year = excluded.year, favorite_story = excluded.favorite_story, body = excluded.body,
    publish_at = excluded.publish_at
  WHERE (d.kind, d.title, d.alt_title, d.names, d.team_ids, d.team_names, d.category_id, d.category_name, d.year, d.favorite_story, d.body, d.publish_at)
    IS DISTINCT FROM (excluded.kind, excluded.title, excluded.alt_title, excluded.names, excluded.team_ids, excluded.team_names,
                      excluded.category_id, excluded.category_name, excluded.year, excluded.favorite_story, excluded.body, excluded.publish_at);
$$;
