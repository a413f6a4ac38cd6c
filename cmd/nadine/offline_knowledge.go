package main

import (
	"context"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/knowledge"
	"github.com/nadine-robot/nadine/lexical"
)

// The offline engine searches the knowledge base with the lexical embedder:
// it is what answers when the network fails, so it must not wait on an
// embedding server. With a model embedder configured, the knowledge base is
// therefore also stored in the lexical space (a second vector per section,
// which the model engines never compare with theirs).

// offlineEmbedder returns emb when it is the lexical embedder, else a new one.
func offlineEmbedder(emb nadine.Embedder) *lexical.Embedder {
	if l, ok := emb.(*lexical.Embedder); ok {
		return l
	}
	return lexical.New(0)
}

// ingester embeds with the configured embedder and, when it is another, in
// the offline engine's lexical space too.
func (a *app) ingester() *knowledge.Ingester {
	in := &knowledge.Ingester{Store: a.store, Embedder: a.embedder, Logger: a.log}
	if a.lexical.Name() != a.embedder.Name() {
		in.Also = []nadine.Embedder{a.lexical}
	}
	return in
}

// ensureOfflineKnowledge adds the lexical copy to an older base built with a
// model embedder, keeping its vectors: no model call.
func (a *app) ensureOfflineKnowledge(ctx context.Context) {
	if a.lexical.Name() == a.embedder.Name() {
		return
	}
	n, err := knowledge.AddSpace(ctx, a.store, a.lexical)
	if err != nil {
		a.log.Warn("knowledge base not indexed for the offline engine", "err", err)
		return
	}
	if n > 0 {
		a.log.Info("knowledge base indexed for the offline engine", "sections", n, "embedder", a.lexical.Name())
	}
}
