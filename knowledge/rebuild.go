package knowledge

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/nadine-robot/nadine"
)

// Rebuild re-embeds the whole knowledge base with the Ingester's embedder,
// in one PutKnowledge, so that a changed embedder finds everything it was
// given:
//
//   - every source ingested from files keeps its chunks as they were
//     ingested (the files need not exist any more), with new vectors;
//   - the built-in documents are read again from builtin, under root,
//     when the knowledge base holds built-in sources or holds nothing at
//     all: a new binary's new or changed documents are taken, those it no
//     longer has are dropped. With builtin nil they are re-embedded like
//     the others.
//
// The Report counts the sources stored as Files and their chunks.
func (in *Ingester) Rebuild(ctx context.Context, builtin fs.FS, root string) (Report, error) {
	if in.Store == nil || in.Embedder == nil {
		return Report{}, nadine.Errorf(nadine.EINVALID, "knowledge: rebuild needs a store and an embedder")
	}
	known, err := in.Store.KnowledgeSources(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("knowledge: sources: %w", err)
	}
	var (
		docs        []nadine.KnowledgeDocument
		oldBuiltins []string
	)
	for _, src := range known {
		if src.Builtin && builtin != nil {
			oldBuiltins = append(oldBuiltins, src.Key)
			continue
		}
		cs, err := in.Store.KnowledgeChunks(ctx, src.Key)
		if err != nil {
			return Report{}, fmt.Errorf("knowledge: chunks of %s: %w", src.Key, err)
		}
		for i := range cs {
			cs[i].ID, cs[i].Embedding, cs[i].Embedder = 0, nil, ""
		}
		docs = append(docs, nadine.KnowledgeDocument{Source: src, Chunks: cs})
	}
	if builtin != nil && (len(oldBuiltins) > 0 || len(known) == 0) {
		b := *in
		b.Builtin, b.Force = true, true
		bdocs, _, errs, err := b.collect(ctx, builtin, root, "", nil)
		if err != nil {
			return Report{}, err
		}
		if len(errs) > 0 {
			return Report{}, fmt.Errorf("knowledge: built-in documents: %w", errs[0])
		}
		// Built-in documents this binary no longer has are dropped.
		have := map[string]bool{}
		for _, d := range bdocs {
			have[d.Source.Key] = true
		}
		for _, k := range oldBuiltins {
			if !have[k] && len(bdocs) > 0 {
				bdocs[0].Replaces = append(bdocs[0].Replaces, k)
			}
		}
		docs = append(docs, bdocs...)
	}
	if err := in.store(ctx, docs); err != nil {
		return Report{}, err
	}
	return Report{Files: len(docs), Chunks: chunkCount(docs)}, nil
}
