package knowledge

import (
	"context"

	"github.com/nadine-robot/nadine"
)

// DefaultK is how many chunks Retrieve returns when k is zero or less
// (the knowledge RAG retrieves the top 3).
const DefaultK = nadine.DefaultKnowledgeK

// Retrieve is nadine.RetrieveKnowledge, which the engines call; it records the
// search in the context's trace.
func Retrieve(ctx context.Context, store nadine.KnowledgeStore, emb nadine.Embedder, query string, k int) ([]nadine.ScoredChunk, error) {
	return nadine.RetrieveKnowledge(ctx, store, emb, query, k)
}
