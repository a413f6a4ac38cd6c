package knowledge

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/nadine-robot/nadine"
)

// Rebuild re-embeds every source's chunks as ingested (the files need not
// exist) and re-reads builtin's documents, so a new binary's documents replace the old.
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
		docs = append(docs, nadine.KnowledgeDocument{Source: src, Chunks: sections(cs)})
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
	rep := Report{Files: len(docs), Chunks: chunkCount(docs)}
	if err := in.store(ctx, docs); err != nil {
		return Report{}, err
	}
	return rep, nil
}

// sections counts a chunk stored in several spaces (a model's and the offline
// engine's) as one section.
func sections(cs []nadine.KnowledgeChunk) []nadine.KnowledgeChunk {
	var out []nadine.KnowledgeChunk
	seen := map[string]bool{}
	for _, c := range cs {
		key := c.Title + "\x00" + c.Text
		if seen[key] {
			continue
		}
		seen[key] = true
		c.ID, c.Embedding, c.Embedder = 0, nil, ""
		out = append(out, c)
	}
	return out
}

// AddSpace adds one vector space (the offline engine's lexical one, say)
// without re-embedding the others; sources already in emb's space are left alone.
func AddSpace(ctx context.Context, store nadine.KnowledgeStore, emb nadine.Embedder) (int, error) {
	known, err := store.KnowledgeSources(ctx)
	if err != nil {
		return 0, fmt.Errorf("knowledge: sources: %w", err)
	}
	n := 0
	for _, src := range known {
		if src.Chunks == 0 || slices.Contains(strings.Split(src.Embedder, ","), emb.Name()) {
			continue
		}
		cs, err := store.KnowledgeChunks(ctx, src.Key)
		if err != nil {
			return n, fmt.Errorf("knowledge: chunks of %s: %w", src.Key, err)
		}
		extra := sections(cs)
		if err := embedWith(ctx, emb, 0, extra); err != nil {
			return n, err
		}
		for i := range cs {
			cs[i].ID = 0
		}
		doc := nadine.KnowledgeDocument{Source: src, Chunks: append(cs, extra...)}
		if err := store.PutKnowledge(ctx, []nadine.KnowledgeDocument{doc}); err != nil {
			return n, fmt.Errorf("knowledge: store %s in %s: %w", src.Key, emb.Name(), err)
		}
		n += len(extra)
	}
	return n, nil
}
