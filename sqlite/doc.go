// Package sqlite implements nadine.Store on an embedded SQLite database,
// through the pure-Go driver modernc.org/sqlite (no cgo). One robot keeps
// everything it persists in one file of its data directory: profiles and the
// user id → name map, conversation windows, long-term memories, the
// knowledge base, visual scenes and graph checkpoints.
//
// Durability: the database runs in WAL mode with synchronous=FULL, so a
// method that returned nil has its write on disk; a kill -9 at any moment
// loses no acknowledged write and leaves a database that opens cleanly. All
// writes go through one connection (SQLite has one writer anyway); reads use
// a small separate pool. The schema is a sequence of numbered SQL files
// embedded in the binary and applied in one transaction at Open, with a Go
// step after a file where SQL alone cannot do the job (migration 4 fills the
// vector index and its codes from the memories table, about 6 s for
// 100,000 memories, or the codes from an index of schema 2 or 3, 1 s).
//
// Retrieval: vectors are stored as float32 little-endian BLOBs with the name
// of the embedder that made them. A memory search is an exact top-k cosine
// similarity computed in Go over the vectors of one user only, comparing only
// vectors of the query's embedder and dimension. The memories table is the
// source of truth; alongside it, the table memory_vectors (schema 2) keeps a
// packed copy of each user's vectors: blocks of up to 64 KiB of vectors of
// one embedder and dimension, with their ids, types and norms, rewritten in
// the same transaction as every write that changes that user's memory
// vectors, and memory_codes (schema 4) the same blocks quantized (see
// below), written with them. Loading a user's vectors for a search
// therefore reads a few dozen rows instead of one row per memory. A user's
// vectors are kept in memory after the first search (or from when
// WarmMemories is told the person is there); a write that adds memories
// adds them to the cached set, any other write for that user drops it;
// concurrent first searches of one user share one load. The cache is
// bounded in bytes (Options.CacheBytes, 64 MiB), least recently used first
// out. A person whose vectors exceed Options.QuantizeAbove (8 MiB) is kept
// quantized, each vector in int8 with the bound of the error this makes on
// a cosine (quantize.go), loaded from memory_codes (a quarter of the bytes,
// nothing to convert), the codes outside the Go heap: a search scans the
// quantized vectors (split over the CPUs for large sets), keeps every
// memory that could be among the k best, and computes the exact scores of
// those from the stored vectors, so that the results are the exact
// search's, entry for entry; 100,000 memories of 256 dimensions then take
// 27 MB, load in 33 ms, and a search of one type scans in 2.4 ms. A store
// without cache (CacheBytes < 0) scores the blocks as it reads them. A
// search returns no vectors. Read connections
// map the database file into memory (Options.MmapSize), which makes loading
// a user's blocks copy pages rather than make a system call per page;
// reads that touch pages once (a large person's codes, the rows of a
// search's candidates, the embedder counts) use two connections without
// the map, so that those pages do not stay resident; an I/O
// error on a mapped page then stops the process instead of failing the
// query, which is why the map can be turned off.
//
// Isolation: every method that touches personal data takes the user id, and
// every statement over personal tables is filtered by that id (WHERE user_id
// = ?), so a query for one user cannot return another user's document. The
// only statements across users are the listings the interface asks for:
// Users, OpenConversations (recovery at start) and MemoryEmbedders (counts),
// and the migration that builds the vector index (user by user).
// The knowledge base lives in its own table, shared by all users.
//
// Conventions of this implementation, beyond the nadine.Store documentation:
//
//   - An empty user id is an EINVALID error for every personal method.
//   - AppendMessage to an ended conversation is an EINVALID error: the
//     caller starts a new conversation id. StoreChunk on an ended
//     conversation is EINVALID too; EndConversation on an ended one is a
//     no-op.
//   - RecentMessages and MessageRange of an unknown conversation return no
//     messages and no error; Conversation returns ENOTFOUND.
//   - Profile returns ENOTFOUND for a user known only by name (SetUserName
//     without SaveProfile); Users lists both.
//   - Checkpoint keys of personal state start with "<userID>/": ForgetUser
//     deletes exactly the checkpoints with that prefix.
//   - AddMemory fills the metadata keys "date" (2006-01-02), "time"
//     (15:04:05), "timestamp" (Unix seconds) and "conversation_id" from the
//     memory when they are absent; Time defaults to Now.
//   - Text is stored byte for byte, invalid UTF-8 included; metadata maps
//     are stored as JSON, which repairs invalid UTF-8.
package sqlite
