package knowledge

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/nadine-robot/nadine"
)

// defaultFS holds the default knowledge base about Nadine.
//
//go:embed default/*.md
var defaultFS embed.FS

// DefaultRoot is the folder of the default knowledge base within Default().
const DefaultRoot = "default"

// Default returns the file system of the default knowledge base, embedded
// in the binary: Markdown files under DefaultRoot.
func Default() fs.FS { return defaultFS }

// EnsureDefault builds the default knowledge base when the store holds no
// knowledge at all (the knowledge base is built when it is missing),
// and reports whether it did.
//
// When the store already holds knowledge, EnsureDefault checks that it can
// be searched with emb: knowledge embedded by another embedder is never
// compared with emb's vectors, so every search would come back empty. That
// case is an EINVALID error asking to rebuild the knowledge base (clear it,
// then ingest again), rather than a silently empty knowledge base.
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
