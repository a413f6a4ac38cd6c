package main

import (
	"context"
	"fmt"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/knowledge"
	"github.com/nadine-robot/nadine/lexical"
)

// The offline engine searches the knowledge base with the lexical embedder:
// it is what answers when the network fails, so it must not wait on an
// embedding server. With a model embedder configured, the knowledge base is
// therefore also stored in the lexical space (a second vector per section,
// which the model engines never compare with theirs).

// offlineEmbedder returns emb when it is the lexical embedder, else a new
// one.
func offlineEmbedder(emb nadine.Embedder) *lexical.Embedder {
	if l, ok := emb.(*lexical.Embedder); ok {
		return l
	}
	return lexical.New(0)
}

// ensureOfflineKnowledge stores the lexical copy of the knowledge base when
// the configured embedder is another one and the copy is missing: from
// knowledge.dir, else from the built-in documents.
func (a *app) ensureOfflineKnowledge(ctx context.Context) {
	if a.lexical.Name() == a.embedder.Name() {
		return
	}
	spaces, err := a.store.KnowledgeEmbedders(ctx)
	if err != nil || spaces[a.lexical.Name()] > 0 || spaces[a.embedder.Name()] == 0 {
		return
	}
	if a.cfg.Knowledge.Dir != "" {
		err = a.ingestOfflineCopy(ctx, a.cfg.Knowledge.Dir)
	} else {
		_, err = knowledge.IngestFS(ctx, a.store, a.lexical, knowledge.Default(), knowledge.DefaultRoot)
	}
	if err != nil {
		a.log.Warn("knowledge base not indexed for the offline engine", "err", err)
	}
}

// ingestOfflineCopy adds the lexical copy of a folder's documents, when the
// configured embedder is not the lexical one.
func (a *app) ingestOfflineCopy(ctx context.Context, dir string) error {
	if a.lexical.Name() == a.embedder.Name() {
		return nil
	}
	if _, err := knowledge.Ingest(ctx, a.store, a.lexical, dir); err != nil {
		return fmt.Errorf("knowledge: offline copy of %s: %w", dir, err)
	}
	return nil
}
