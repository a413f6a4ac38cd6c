package nadine

import "time"

// KnowledgeSource is one document the knowledge base holds chunks of: a
// file given to `nadine kb ingest` (or found in knowledge.dir), or one of
// the built-in documents. Recording sources is what lets the knowledge base
// be re-embedded without its files, and lets an unchanged file be ingested
// again without changing anything.
type KnowledgeSource struct {
	// Key identifies the source: the absolute path of a file ingested from
	// disk, or the path within the file system it was ingested from (the
	// built-in documents: "default/nadine.md").
	Key string `json:"key"`
	// Name is the Source its chunks carry: the path relative to the folder
	// that was ingested.
	Name string `json:"name"`
	// Builtin marks the documents embedded in the binary.
	Builtin bool `json:"builtin,omitempty"`
	// Hash is "sha256:<hex>" of the file's content ("" when unknown, for
	// chunks stored before sources were recorded).
	Hash string `json:"hash,omitempty"`
	// Ingested is when the source's chunks were last replaced.
	Ingested time.Time `json:"ingested"`

	// Chunks is how many chunks the store holds for the source, and
	// Embedder the embedder that made their vectors (several joined with
	// ","; "" when it has no chunk). Both are read back, not written.
	Chunks   int    `json:"chunks"`
	Embedder string `json:"embedder,omitempty"`
}

// KnowledgeDocument is a source with all its chunks, as PutKnowledge
// stores it.
type KnowledgeDocument struct {
	Source KnowledgeSource
	Chunks []KnowledgeChunk
	// Replaces lists keys of other sources this one supersedes (a file
	// recorded under an older key); their chunks and records are deleted.
	Replaces []string
}
