-- Schema 2: a packed copy of the memory vectors, per user, so that loading
-- one user's vectors for a search reads a few rows instead of one row per
-- memory. The memories table stays the source of truth: every write that
-- changes a user's memory vectors changes that user's blocks in the same
-- transaction, and the migration's Go step fills this table from it.
--
-- A block holds count vectors of one user, embedder and dimension, in
-- parallel arrays: ids (int64 little-endian memory ids), types (one byte
-- each: 1 conversation, 2 episode, 3 fact), norms (float32 little-endian
-- Euclidean norms) and vecs (count x dims float32 little-endian values).
-- The small columns come first so that reading the ids of a block does not
-- read its vectors.
CREATE TABLE memory_vectors (
	user_id  TEXT NOT NULL,
	embedder TEXT NOT NULL,
	dims     INTEGER NOT NULL CHECK (dims > 0),
	block    INTEGER NOT NULL,
	count    INTEGER NOT NULL CHECK (count > 0),
	ids      BLOB NOT NULL CHECK (length(ids) = 8 * count),
	types    BLOB NOT NULL CHECK (length(types) = count),
	norms    BLOB NOT NULL CHECK (length(norms) = 4 * count),
	vecs     BLOB NOT NULL CHECK (length(vecs) = 4 * count * dims),
	PRIMARY KEY (user_id, embedder, dims, block)
);
