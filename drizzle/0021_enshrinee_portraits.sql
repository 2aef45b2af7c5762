-- Enshrinee portraits (a media file under portraits/ with its description) and rich biographies
-- (decision 033): biography_html is the sanitized HTML the console's editor saves; biography
-- stays the plain text derived from it (the search documents and the page description read it).
ALTER TABLE "enshrinees" ADD COLUMN "biography_html" text;--> statement-breakpoint
ALTER TABLE "enshrinees" ADD COLUMN "portrait" text;--> statement-breakpoint
ALTER TABLE "enshrinees" ADD COLUMN "portrait_alt" text;--> statement-breakpoint
-- Every existing plain-text biography becomes HTML: each blank-line-separated paragraph escaped
-- and wrapped in <p>, its single line breaks kept as <br>.
UPDATE "enshrinees" AS n SET "biography_html" = coalesce((
  SELECT string_agg('<p>' || replace(replace(replace(replace(btrim(p.part, E' \t\r\n'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), E'\n', '<br>') || '</p>', '' ORDER BY p.i)
  FROM regexp_split_to_table(replace(n.biography, E'\r\n', E'\n'), E'\\n[ \\t]*\\n') WITH ORDINALITY AS p(part, i)
  WHERE btrim(p.part, E' \t\r\n') <> ''
), '')
WHERE n."biography_html" IS NULL;
