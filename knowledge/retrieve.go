package knowledge

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
)

// DefaultK is how many chunks Retrieve returns when k is zero or less
// (seed 000 retrieves the top 3).
const DefaultK = 3

// Retrieve returns the k knowledge chunks most similar to query, best
// first, compared in emb's vector space. It records the search in the
// context's trace as a "knowledge" retrieval, texts shortened to 200
// characters. An empty query is an EINVALID error.
func Retrieve(ctx context.Context, store nadine.KnowledgeStore, emb nadine.Embedder, query string, k int) ([]nadine.ScoredChunk, error) {
	if strings.TrimSpace(query) == "" {
		return nil, nadine.Errorf(nadine.EINVALID, "knowledge: empty query")
	}
	if k <= 0 {
		k = DefaultK
	}
	tr := nadine.TraceFrom(ctx)
	start := time.Now()
	rec := nadine.Retrieval{Kind: "knowledge", Query: query, Start: start}
	res, err := retrieve(ctx, store, emb, query, k)
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
		rec.Results = append(rec.Results, nadine.RetrievedItem{ID: id, Text: shorten(c.Text, 200), Score: c.Score})
	}
	tr.AddRetrieval(rec)
	return res, nil
}

func retrieve(ctx context.Context, store nadine.KnowledgeStore, emb nadine.Embedder, query string, k int) ([]nadine.ScoredChunk, error) {
	v, err := nadine.EmbedOne(ctx, emb, query)
	if err != nil {
		return nil, fmt.Errorf("knowledge: embed query: %w", err)
	}
	res, err := store.SearchKnowledge(ctx, v, emb.Name(), k)
	if err != nil {
		return nil, fmt.Errorf("knowledge: search: %w", err)
	}
	return res, nil
}

// shorten cuts s to at most n runes, marking the cut with "…".
func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
