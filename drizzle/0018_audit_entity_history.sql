-- Versions of a record (issue 24, decision 030): a record's history is read from the audit log by
-- entity type and id, newest first.
CREATE INDEX "audit_log_entity_history_idx" ON "audit_log" USING btree ("entity_type","entity_id","at");
