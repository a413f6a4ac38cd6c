-- requires: vector
-- Schema 3, with schema 2: the vector columns, filled by schema 2's step,
-- replace the bytea ones. STORAGE MAIN keeps a vector inline in its row
-- (compressed only when the row would not fit a page), so a scan does not
-- fetch it from TOAST.
ALTER TABLE memories DROP COLUMN embedding;
ALTER TABLE memories RENAME COLUMN embedding_vector TO embedding;
ALTER TABLE memories ADD CHECK ((embedding IS NULL) = (dims = 0) AND coalesce(vector_dims(embedding) = dims, true));
ALTER TABLE memories ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE knowledge DROP COLUMN embedding;
ALTER TABLE knowledge RENAME COLUMN embedding_vector TO embedding;
ALTER TABLE knowledge ADD CHECK ((embedding IS NULL) = (dims = 0) AND coalesce(vector_dims(embedding) = dims, true));
ALTER TABLE knowledge ALTER COLUMN embedding SET STORAGE MAIN;

-- How many vectors each user has in each space (embedder and dimension),
-- kept by a trigger, so that a search knows at once whether to rank a
-- user's rows exactly or go through the dimension's HNSW index (a person
-- with very many memories). A count that falls to zero is deleted with its
-- row: nothing of a forgotten user stays here.
CREATE TABLE memory_spaces (
	user_id  text NOT NULL,
	embedder text NOT NULL,
	dims     integer NOT NULL,
	n        bigint NOT NULL,
	PRIMARY KEY (user_id, embedder, dims)
);

CREATE FUNCTION memory_spaces_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	left_ bigint;
BEGIN
	IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.dims > 0 THEN
		UPDATE memory_spaces SET n = n - 1
			WHERE user_id = OLD.user_id AND embedder = OLD.embedder AND dims = OLD.dims
			RETURNING n INTO left_;
		IF left_ <= 0 THEN
			DELETE FROM memory_spaces
				WHERE user_id = OLD.user_id AND embedder = OLD.embedder AND dims = OLD.dims;
		END IF;
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.dims > 0 THEN
		INSERT INTO memory_spaces (user_id, embedder, dims, n) VALUES (NEW.user_id, NEW.embedder, NEW.dims, 1)
			ON CONFLICT (user_id, embedder, dims) DO UPDATE SET n = memory_spaces.n + 1;
	END IF;
	RETURN NULL;
END
$$;

CREATE TRIGGER memories_spaces AFTER INSERT OR DELETE OR UPDATE OF user_id, embedder, dims ON memories
	FOR EACH ROW EXECUTE FUNCTION memory_spaces_count();

INSERT INTO memory_spaces (user_id, embedder, dims, n)
	SELECT user_id, embedder, dims, count(*) FROM memories WHERE dims > 0 GROUP BY user_id, embedder, dims;
