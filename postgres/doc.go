// Package postgres implements nadine.Store on PostgreSQL, through pgx and
// its connection pool, for fleets: every robot and process on one database
// shares people, profiles, memories, episodes, scenes, checkpoints and the
// knowledge base. It passes the same contract suite as package sqlite
// (internal/storetest).
//
// Servers: stock PostgreSQL 13 or later, and PostgreSQL with the pgvector
// extension, used when it is installed (or installable by the store's role;
// see Options.Vector). PGlite's server works too, one connection at a time:
// its URL needs pool_max_conns=1 and default_query_exec_mode=exec.
//
// Schema: numbered SQL files embedded in the binary (migrations/), applied
// at Open in one transaction under a transaction-level advisory lock, so
// that processes starting together apply each once, and recorded in
// schema_migrations. A file whose first line is "-- requires: vector" is
// applied only where pgvector is usable, and at a later start when the
// extension appears; migration 2 has a Go step that copies the stock
// vectors into the vector columns. Options.Schema keeps the tables in a
// schema of their own.
//
// Retrieval: on stock PostgreSQL the searched vectors are bytea (float32
// little-endian) and a search reads the vectors of the query's user,
// embedder and dimension (through the (user_id, type) index) and ranks them
// exactly in Go. With pgvector they are vector columns and the server
// ranks: a user's memories exactly over the user's rows while the user has
// at most Options.ExactLimit vectors in the query's space (counted by a
// trigger in memory_spaces), through the dimension's HNSW index above that;
// the knowledge base always through HNSW. The HNSW indexes are partial, one
// per dimension and table (memories_hnsw_768), on a vector expression up to
// 2,000 dimensions and a halfvec one up to 4,000, created when the first
// vector of a dimension is stored; pgvector 0.8's iterative scans make a
// filtered index scan go on until it has k rows. Scores are always computed
// by the store, in float64, from the vectors read back.
//
// Isolation: every statement over personal tables is filtered by the user
// id; the only statements across users are the listings the interface asks
// for (Users, OpenConversations, MemoryEmbedders).
//
// Concurrency: writes are read-committed transactions that lock the rows
// they read and change (a conversation's row for AppendMessage, StoreChunk
// and EndConversation; a profile's for UpdateProfile), retried on a
// serialization failure or a deadlock, so robots of several processes
// append to a conversation, store a chunk once and update a profile without
// losing a write.
//
// Errors: messages start with "postgres: "; a server that cannot be reached
// or went away is EUNAVAILABLE, data the server refused EINVALID, missing
// rows ENOTFOUND (see code).
//
// Conventions beyond the nadine.Store documentation are sqlite's (see that
// package): an empty user id is EINVALID, appending to an ended
// conversation is EINVALID, a user known only by name has no Profile,
// checkpoint keys of a person start with "<userID>/". Text PostgreSQL
// cannot store (NUL, invalid UTF-8) is stored with U+FFFD in its place,
// in text columns and in the jsonb metadata alike.
package postgres
