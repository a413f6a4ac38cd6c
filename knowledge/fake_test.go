package knowledge_test

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/nadine-robot/nadine"
)

// memStore is an in-memory nadine.KnowledgeStore that keeps every chunk for
// inspection.
type memStore struct {
	mu     sync.Mutex
	chunks []nadine.KnowledgeChunk
	adds   int
	err    error
}

var _ nadine.KnowledgeStore = (*memStore)(nil)

func (m *memStore) AddKnowledge(_ context.Context, chunks []nadine.KnowledgeChunk) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return m.err
	}
	m.adds++
	for _, c := range chunks {
		c.ID = int64(len(m.chunks) + 1)
		m.chunks = append(m.chunks, c)
	}
	return nil
}

func (m *memStore) SearchKnowledge(_ context.Context, v []float32, embedder string, k int) ([]nadine.ScoredChunk, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return nil, m.err
	}
	var out []nadine.ScoredChunk
	for _, c := range m.chunks {
		if c.Embedder != embedder || len(c.Embedding) != len(v) {
			continue
		}
		var dot, na, nb float64
		for i := range v {
			dot += float64(v[i]) * float64(c.Embedding[i])
			na += float64(v[i]) * float64(v[i])
			nb += float64(c.Embedding[i]) * float64(c.Embedding[i])
		}
		s := 0.0
		if na > 0 && nb > 0 {
			s = dot / math.Sqrt(na*nb)
		}
		out = append(out, nadine.ScoredChunk{KnowledgeChunk: c, Score: s})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	if len(out) > k {
		out = out[:k]
	}
	return out, nil
}

func (m *memStore) KnowledgeCount(context.Context) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.chunks), m.err
}

func (m *memStore) KnowledgeEmbedders(context.Context) (map[string]int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]int{}
	for _, c := range m.chunks {
		out[c.Embedder]++
	}
	return out, m.err
}

func (m *memStore) ClearKnowledge(context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.chunks = nil
	return m.err
}

func (m *memStore) all() []nadine.KnowledgeChunk {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]nadine.KnowledgeChunk(nil), m.chunks...)
}

// countingEmbedder wraps an embedder and records the size of each call.
type countingEmbedder struct {
	nadine.Embedder
	mu    sync.Mutex
	calls []int
	err   error
}

func (e *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	e.calls = append(e.calls, len(texts))
	err := e.err
	e.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("counting embedder: %w", err)
	}
	return e.Embedder.Embed(ctx, texts)
}
