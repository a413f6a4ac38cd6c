package knowledge

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/nadine-robot/nadine"
)

//go:embed default/*.md
var defaultFS embed.FS

// DefaultRoot is the folder of the default knowledge base within Default().
const DefaultRoot = "default"

// Default holds the Markdown files under DefaultRoot, embedded in the binary.
func Default() fs.FS { return defaultFS }

// EnsureDefault builds the default base into an empty store. Knowledge of
// another embedder is EINVALID (rebuild it), rather than searches silently empty.
func EnsureDefault(ctx context.Context, store nadine.KnowledgeStore, emb nadine.Embedder) (bool, error) {
	spaces, err := store.KnowledgeEmbedders(ctx)
	if err != nil {
		return false, fmt.Errorf("knowledge: %w", err)
	}
	if len(spaces) > 0 {
		if spaces[emb.Name()] == 0 {
			total := 0
			for _, n := range spaces {
				total += n
			}
			return false, nadine.Errorf(nadine.EINVALID,
				"knowledge: the knowledge base holds %d chunks but none embedded by %s; rebuild it (nadine kb rebuild)", total, emb.Name())
		}
		return false, nil
	}
	if _, err := (&Ingester{Store: store, Embedder: emb, Builtin: true}).RunFS(ctx, defaultFS, DefaultRoot); err != nil {
		return false, fmt.Errorf("knowledge: build default: %w", err)
	}
	return true, nil
}
