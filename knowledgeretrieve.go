package nadine

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DefaultKnowledgeK is how many chunks RetrieveKnowledge returns when k is
// zero or less (the knowledge RAG retrieves the top 3).
const DefaultKnowledgeK = 3

// KnowledgeMetaVisual is the KnowledgeChunk.Metadata key of the visual
// (an image file) related to a chunk, and KnowledgeMetaVisualCaption that
// of its caption.
const (
	KnowledgeMetaVisual        = "visual"
	KnowledgeMetaVisualCaption = "visual_caption"
)

// RetrieveKnowledge returns the k knowledge chunks most similar to query,
// best first, compared in emb's vector space. It records the search in the
// context's trace as a "knowledge" retrieval, texts shortened to 200
// characters. An empty query is an EINVALID error.
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
