package knowledge_test

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/nadine-robot/nadine"
)

// memStore is an in-memory nadine.KnowledgeStore that keeps every chunk for
// inspection.
type memStore struct {
	mu      sync.Mutex
	chunks  []nadine.KnowledgeChunk
	keys    []string // source key of each chunk
	sources map[string]nadine.KnowledgeSource
	adds    int // store writes: AddKnowledge and PutKnowledge calls
	nextID  int64
	err     error
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
		if _, ok := m.sources[c.Source]; !ok {
			m.record(nadine.KnowledgeSource{Key: c.Source, Name: c.Source})
		}
		m.add(c.Source, c)
	}
	return nil
}

func (m *memStore) record(src nadine.KnowledgeSource) {
	if m.sources == nil {
		m.sources = map[string]nadine.KnowledgeSource{}
	}
	src.Chunks, src.Embedder = 0, ""
	m.sources[src.Key] = src
}

func (m *memStore) add(key string, c nadine.KnowledgeChunk) {
	m.nextID++
	c.ID = m.nextID
	m.chunks = append(m.chunks, c)
	m.keys = append(m.keys, key)
}

// drop deletes a source's chunks and record.
func (m *memStore) drop(key string) {
	var cs []nadine.KnowledgeChunk
	var ks []string
	for i, c := range m.chunks {
		if m.keys[i] != key {
			cs, ks = append(cs, c), append(ks, m.keys[i])
		}
	}
	m.chunks, m.keys = cs, ks
	delete(m.sources, key)
}

func (m *memStore) PutKnowledge(_ context.Context, docs []nadine.KnowledgeDocument) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return m.err
	}
	m.adds++
	for _, d := range docs {
		for _, k := range append([]string{d.Source.Key}, d.Replaces...) {
			m.drop(k)
		}
		m.record(d.Source)
		for _, c := range d.Chunks {
			m.add(d.Source.Key, c)
		}
	}
	return nil
}

func (m *memStore) RemoveKnowledge(_ context.Context, keys ...string) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return 0, m.err
	}
	n := 0
	for _, k := range keys {
		if _, ok := m.sources[k]; ok {
			n++
		}
		m.drop(k)
	}
	return n, nil
}

func (m *memStore) KnowledgeSources(context.Context) ([]nadine.KnowledgeSource, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return nil, m.err
	}
	var out []nadine.KnowledgeSource
	for _, src := range m.sources {
		embs := map[string]bool{}
		for i, c := range m.chunks {
			if m.keys[i] == src.Key {
				src.Chunks++
				embs[c.Embedder] = true
			}
		}
		var names []string
		for e := range embs {
			names = append(names, e)
		}
		sort.Strings(names)
		src.Embedder = strings.Join(names, ",")
		out = append(out, src)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

func (m *memStore) KnowledgeChunks(_ context.Context, key string) ([]nadine.KnowledgeChunk, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []nadine.KnowledgeChunk
	for i, c := range m.chunks {
		if m.keys[i] == key {
			out = append(out, c)
		}
	}
	return out, m.err
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
	m.chunks, m.keys, m.sources = nil, nil, nil
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
