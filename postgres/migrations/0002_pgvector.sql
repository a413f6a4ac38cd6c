-- requires: vector
-- Schema 2, applied where the pgvector extension is installed (at the first
-- start that finds it): the searched vectors become vector columns, ranked
-- by the server. A memory search is an exact top-k over one user's rows
-- (memories_user), or, for a user with very many vectors in the query's
-- space, goes through that dimension's HNSW index; the knowledge base
-- always does. The HNSW indexes (partial, one per dimension: memories_hnsw_N,
-- knowledge_hnsw_N) are created when the first vector of a dimension is
-- stored.
--
-- This file adds the vector columns; the store's Go step for version 2
-- fills them from the bytea ones (SQL cannot read float32 bytes), and
-- migration 3 puts them in their place.
ALTER TABLE memories ADD COLUMN embedding_vector vector;
ALTER TABLE knowledge ADD COLUMN embedding_vector vector;
