package visual_test

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/nadine-robot/nadine"
)

// memStore is an in-memory nadine.SceneStore.
type memStore struct {
	mu     sync.Mutex
	scenes map[string]map[string]nadine.Scene // user → scene id → scene
	err    error
}

var _ nadine.SceneStore = (*memStore)(nil)

func newMemStore() *memStore { return &memStore{scenes: map[string]map[string]nadine.Scene{}} }

func (m *memStore) UpsertScenes(_ context.Context, scenes []nadine.Scene) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return m.err
	}
	for _, s := range scenes {
		if m.scenes[s.UserID] == nil {
			m.scenes[s.UserID] = map[string]nadine.Scene{}
		}
		m.scenes[s.UserID][s.SceneID] = s
	}
	return nil
}

func (m *memStore) Scenes(_ context.Context, userID string) ([]nadine.Scene, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return nil, m.err
	}
	var out []nadine.Scene
	for _, s := range m.scenes[userID] {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SceneID < out[j].SceneID })
	return out, nil
}

// mapEmbedder returns fixed vectors per text and counts the texts it
// embedded.
type mapEmbedder struct {
	name string
	vecs map[string][]float32
	err  error

	mu    sync.Mutex
	texts []string
}

func (e *mapEmbedder) Name() string { return e.name }

func (e *mapEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err != nil {
		return nil, e.err
	}
	e.texts = append(e.texts, texts...)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, ok := e.vecs[t]
		if !ok {
			return nil, fmt.Errorf("mapEmbedder %s: no vector for %q", e.name, t)
		}
		out[i] = v
	}
	return out, nil
}

func (e *mapEmbedder) embedded() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.texts...)
}
