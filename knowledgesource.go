package nadine

import "time"

// KnowledgeSource records an ingested document, so the knowledge base can be
// re-embedded without its files and an unchanged file re-ingested as a no-op.
type KnowledgeSource struct {
	// Key is a file's absolute path, or its path in the embedded file system
	// for the built-in documents ("default/nadine.md").
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

	// Chunks and Embedder (several joined with ",") are read back from the
	// store, never written.
	Chunks   int    `json:"chunks"`
	Embedder string `json:"embedder,omitempty"`
}

// KnowledgeDocument is a source with all its chunks, as PutKnowledge stores it.
type KnowledgeDocument struct {
	Source KnowledgeSource
	Chunks []KnowledgeChunk
	// Replaces lists keys of other sources this one supersedes (a file
	// recorded under an older key); their chunks and records are deleted.
	Replaces []string
}
