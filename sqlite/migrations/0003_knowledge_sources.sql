-- Schema 3: the knowledge base records the sources it was built from, so
-- that it can be re-embedded without its files and an unchanged file
-- ingested again changes nothing. A source is a file ingested from disk
-- (keyed by its absolute path) or a built-in document (keyed by its path in
-- the binary, "default/..."); hash is "sha256:<hex>" of its content.
CREATE TABLE knowledge_sources (
	key         TEXT PRIMARY KEY,
	name        TEXT NOT NULL DEFAULT '',
	builtin     INTEGER NOT NULL DEFAULT 0,
	hash        TEXT NOT NULL DEFAULT '',
	ingested_us INTEGER NOT NULL DEFAULT 0
);

ALTER TABLE knowledge ADD COLUMN source_key TEXT NOT NULL DEFAULT '';

-- Chunks stored before this schema belong to a source named after their
-- Source, with no hash (the next ingestion of that file replaces them);
-- the built-in documents were ingested under "default/".
UPDATE knowledge SET source_key = source;
INSERT INTO knowledge_sources (key, name, builtin)
	SELECT DISTINCT source, source, source LIKE 'default/%' FROM knowledge;

CREATE INDEX knowledge_by_source ON knowledge (source_key);
