-- The collection's CSV import (decision 034): a transaction that writes thousands of exhibits,
-- their links and enshrinees defers the search triggers' refresh (0005) and runs it once at its
-- end, instead of once per statement (an exhibit's document was rebuilt when the exhibit was
-- written, then again when its links were). While `set_config('museum.search_deferred', 'on',
-- true)` holds (until the transaction ends) the collection's statement triggers do not fire; the
-- writer calls search_refresh_exhibits and search_refresh_enshrinees itself, in the same
-- transaction. The trigger functions are unchanged.
DROP TRIGGER search_exhibits_inserted ON exhibits;--> statement-breakpoint
CREATE TRIGGER search_exhibits_inserted AFTER INSERT ON exhibits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT WHEN (current_setting('museum.search_deferred', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION search_exhibits_changed();--> statement-breakpoint
DROP TRIGGER search_exhibits_updated ON exhibits;--> statement-breakpoint
CREATE TRIGGER search_exhibits_updated AFTER UPDATE ON exhibits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT WHEN (current_setting('museum.search_deferred', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION search_exhibits_changed();--> statement-breakpoint
DROP TRIGGER search_exhibits_deleted ON exhibits;--> statement-breakpoint
CREATE TRIGGER search_exhibits_deleted AFTER DELETE ON exhibits REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT WHEN (current_setting('museum.search_deferred', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION search_exhibits_changed();--> statement-breakpoint
DROP TRIGGER search_enshrinees_inserted ON enshrinees;--> statement-breakpoint
CREATE TRIGGER search_enshrinees_inserted AFTER INSERT ON enshrinees REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT WHEN (current_setting('museum.search_deferred', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION search_enshrinees_changed();--> statement-breakpoint
DROP TRIGGER search_enshrinees_updated ON enshrinees;--> statement-breakpoint
CREATE TRIGGER search_enshrinees_updated AFTER UPDATE ON enshrinees REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT WHEN (current_setting('museum.search_deferred', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION search_enshrinees_changed();--> statement-breakpoint
DROP TRIGGER search_enshrinees_deleted ON enshrinees;--> statement-breakpoint
CREATE TRIGGER search_enshrinees_deleted AFTER DELETE ON enshrinees REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT WHEN (current_setting('museum.search_deferred', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION search_enshrinees_changed();--> statement-breakpoint
DROP TRIGGER search_links_inserted ON enshrinee_exhibits;--> statement-breakpoint
CREATE TRIGGER search_links_inserted AFTER INSERT ON enshrinee_exhibits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT WHEN (current_setting('museum.search_deferred', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION search_links_changed();--> statement-breakpoint
DROP TRIGGER search_links_updated ON enshrinee_exhibits;--> statement-breakpoint
CREATE TRIGGER search_links_updated AFTER UPDATE ON enshrinee_exhibits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT WHEN (current_setting('museum.search_deferred', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION search_links_changed();--> statement-breakpoint
DROP TRIGGER search_links_deleted ON enshrinee_exhibits;--> statement-breakpoint
CREATE TRIGGER search_links_deleted AFTER DELETE ON enshrinee_exhibits REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT WHEN (current_setting('museum.search_deferred', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION search_links_changed();
