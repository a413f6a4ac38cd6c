-- requires: vector
-- Schema 2, applied where the pgvector extension is installed (at the first
-- start that finds it): the searched vectors become vector columns, so that
-- a memory search is an exact top-k computed by the server over one user's
-- rows (memories_user) and the knowledge base gets HNSW indexes, one per
-- dimension, created when the first chunk of that dimension is added.
-- STORAGE MAIN keeps a vector inline in its row (compressed only when the
-- row would not fit a page), so a scan does not fetch it from TOAST.
ALTER TABLE memories ALTER COLUMN embedding TYPE vector USING embedding::vector;
ALTER TABLE memories ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE knowledge ALTER COLUMN embedding TYPE vector USING embedding::vector;
ALTER TABLE knowledge ALTER COLUMN embedding SET STORAGE MAIN;
