package nadine

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DefaultKnowledgeK is RetrieveKnowledge's k when none is given: the
// knowledge RAG's top 3.
const DefaultKnowledgeK = 3

// KnowledgeChunk.Metadata keys of a chunk's related image file and its caption.
const (
	KnowledgeMetaVisual        = "visual"
	KnowledgeMetaVisualCaption = "visual_caption"
)

// RetrieveKnowledge returns the k chunks nearest query in emb's space, best
// first, and traces the search with texts shortened to 200 characters.
func RetrieveKnowledge(ctx context.Context, store KnowledgeStore, emb Embedder, query string, k int) ([]ScoredChunk, error) {
	if strings.TrimSpace(query) == "" {
		return nil, Errorf(EINVALID, "knowledge: empty query")
	}
	if k <= 0 {
		k = DefaultKnowledgeK
	}
	tr := TraceFrom(ctx)
	start := time.Now()
	rec := Retrieval{Kind: "knowledge", Query: query, Start: start, Step: StepOf(ctx).ID}
	res, err := retrieveKnowledge(ctx, store, emb, query, k)
	rec.Duration = time.Since(start)
	if err != nil {
		rec.Note = "error: " + err.Error()
		tr.AddRetrieval(rec)
		tr.Fail("knowledge", err)
		return nil, err
	}
	for _, c := range res {
		id := c.Title
		if c.ID != 0 {
			id = strconv.FormatInt(c.ID, 10)
		}
		rec.Results = append(rec.Results, RetrievedItem{ID: id, Text: Shorten(c.Text, 200), Score: c.Score})
	}
	tr.AddRetrieval(rec)
	return res, nil
}

func retrieveKnowledge(ctx context.Context, store KnowledgeStore, emb Embedder, query string, k int) ([]ScoredChunk, error) {
	v, err := EmbedOne(ctx, emb, query)
	if err != nil {
		return nil, fmt.Errorf("knowledge: embed query: %w", err)
	}
	res, err := store.SearchKnowledge(ctx, v, emb.Name(), k)
	if err != nil {
		return nil, fmt.Errorf("knowledge: search: %w", err)
	}
	return res, nil
}
