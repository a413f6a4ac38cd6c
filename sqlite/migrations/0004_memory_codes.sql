-- Schema 4: every block of memory_vectors also quantized (see quantize.go),
-- so that loading a large person's vectors into the cache reads a quarter
-- of the bytes and quantizes nothing: a person with 100,000 memories of 256
-- dimensions was 100 MB read and converted on their first search, and as
-- much garbage for the collector. Every write of a block of memory_vectors
-- writes its row here in the same transaction (the same key), and the
-- migration's Go step fills this table from memory_vectors.
--
-- ids, types and norms are the block's; bounds holds three float32
-- little-endian values per vector (its scale, relative residual and norm
-- ratio), codes count x dims int8 values (the vector in steps of its scale).
CREATE TABLE memory_codes (
	user_id  TEXT NOT NULL,
	embedder TEXT NOT NULL,
	dims     INTEGER NOT NULL CHECK (dims > 0),
	block    INTEGER NOT NULL,
	count    INTEGER NOT NULL CHECK (count > 0),
	ids      BLOB NOT NULL CHECK (length(ids) = 8 * count),
	types    BLOB NOT NULL CHECK (length(types) = count),
	norms    BLOB NOT NULL CHECK (length(norms) = 4 * count),
	bounds   BLOB NOT NULL CHECK (length(bounds) = 12 * count),
	codes    BLOB NOT NULL CHECK (length(codes) = count * dims),
	PRIMARY KEY (user_id, embedder, dims, block)
);
