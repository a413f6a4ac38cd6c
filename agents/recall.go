package agents

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
)

// memoryRecall is the memory_retrieve_agent node: a known user's profile and
// best memories; the appraisal shares its searches (one per turn).
type memoryRecall struct {
	on       bool // the memory agents run (Options.MemoryAgents with a store)
	store    nadine.Store
	embedder nadine.Embedder
	scenes   nadine.SceneRetriever // nil: no visual memory
	// speculate starts the speculative response in the parallel group
	// (see speculate.go): once the person is known, before the memory
	// search, and again once their memories are.
	speculate func(ctx context.Context, s State)
}

// run always clears the previous user's memories first; in the parallel group
// it starts the speculative response as soon as the person is known.
func (m *memoryRecall) run(ctx context.Context, s State) (State, error) {
	group := s.Intent == "" && m.speculate != nil
	s = m.person(ctx, s)
	if group {
		m.speculate(ctx, m.predict(ctx, s))
	}
	s, err := m.recall(ctx, s)
	if err == nil && group {
		m.speculate(ctx, s)
	}
	return s, err
}

// person clears the memories and reads the person's profile: what the
// turn knows of them before any search.
func (m *memoryRecall) person(ctx context.Context, s State) State {
	s.ConversationMemory, s.EpisodeMemory, s.VisualMemory = "", "", nil
	if !m.on || !realID(s.UserInfo.ID) {
		return s
	}
	id := s.UserInfo.ID
	if s.UserInfo.Profile != nil && s.UserInfo.Profile.UserID != id {
		s.UserInfo.Profile = nil
	}
	switch p, err := m.store.Profile(ctx, id); {
	case err == nil:
		s.UserInfo.Profile = &p
		if s.UserInfo.Name == "" {
			s.UserInfo.Name = p.UserName
		}
	case nadine.ErrorCode(err) == nadine.ENOTFOUND:
		// No profile (a face without a name, or a forgotten user): a
		// profile kept in the state is stale.
		s.UserInfo.Profile = nil
	default:
		nadine.TraceFrom(ctx).Fail("memory_retrieve_agent", err)
	}
	return s
}

// vectorCache is an embedder that tells the vectors it keeps without a
// call (embedcache.Cache).
type vectorCache interface {
	Cached(text string) ([]float32, bool)
}

// predict returns s with the memories the previous message's cached vector
// finds, so the speculative response starts before this turn's embedding.
func (m *memoryRecall) predict(ctx context.Context, s State) State {
	c, ok := m.embedder.(vectorCache)
	if !ok || !m.on || !realID(s.UserInfo.ID) || !s.UserInfo.Known() {
		return s
	}
	prev := ""
	for i := len(s.Messages) - 2; i >= 0 && prev == ""; i-- {
		if s.Messages[i].Role == nadine.RoleUser {
			prev = s.Messages[i].Content
		}
	}
	v, ok := c.Cached(prev)
	if prev == "" || !ok {
		return s
	}
	for _, typ := range []nadine.MemoryType{nadine.MemoryEpisode, nadine.MemoryConversation} {
		if !m.has(ctx, s.live, s.UserInfo.ID, typ) {
			continue
		}
		res, err := m.store.SearchMemories(ctx, s.UserInfo.ID, nadine.MemoryQuery{Embedding: v, Embedder: m.embedder.Name(),
			Types: []nadine.MemoryType{typ}, K: 1})
		if err != nil || len(res) == 0 {
			continue
		}
		if typ == nadine.MemoryEpisode {
			s.EpisodeMemory = res[0].Text
		} else {
			s.ConversationMemory = res[0].Text
		}
	}
	return s
}

// recall finds the person's memories (person read them first).
func (m *memoryRecall) recall(ctx context.Context, s State) (State, error) {
	if !m.on || !realID(s.UserInfo.ID) || !s.UserInfo.Known() {
		return s, nil
	}
	tr := nadine.TraceFrom(ctx)
	id := s.UserInfo.ID
	msg := s.latest()
	if hit, err := m.best(ctx, s.live, id, nadine.MemoryEpisode, msg); err == nil && hit.ok {
		s.EpisodeMemory = hit.m.Text
	}
	if hit, err := m.best(ctx, s.live, id, nadine.MemoryConversation, msg); err == nil && hit.ok {
		s.ConversationMemory = hit.m.Text
	}
	if m.scenes != nil {
		scene, score, err := m.scenes.Best(ctx, id, msg)
		switch {
		case err != nil:
			tr.Fail("visual_memory", err)
		case scene != nil:
			s.VisualMemory = &VisualMemory{SceneID: scene.SceneID, ImagePath: scene.ImagePath,
				Description: scene.Description, Time: scene.Time, Score: score}
		}
	}
	return s, nil
}

// has probes once per turn for a memory of typ; on an error it says yes, so
// the search is tried.
func (m *memoryRecall) has(ctx context.Context, t *turn, userID string, typ nadine.MemoryType) bool {
	hit, _ := once(t, (*turn).memoryHits, userID+"\x00has\x00"+string(typ), func() (memoryHit, error) {
		ok, err := m.store.HasMemories(ctx, userID, typ)
		return memoryHit{ok: ok || err != nil}, nil
	})
	return hit.ok
}

// best searches once per turn (appraisal and retrieval share it); a person
// with no memory of the type costs no embedding.
func (m *memoryRecall) best(ctx context.Context, t *turn, userID string, typ nadine.MemoryType, query string) (memoryHit, error) {
	return once(t, (*turn).memoryHits, userID+"\x00"+string(typ)+"\x00"+query, func() (memoryHit, error) {
		emb := m.embedder
		if emb == nil || strings.TrimSpace(query) == "" || !m.has(ctx, t, userID, typ) {
			return memoryHit{}, nil
		}
		tr := nadine.TraceFrom(ctx)
		start := time.Now()
		rec := nadine.Retrieval{Kind: string(typ), Query: query, Start: start, Step: nadine.StepOf(ctx).ID}
		defer func() { rec.Duration = time.Since(start); tr.AddRetrieval(rec) }()
		v, err := once(t, (*turn).queryVectors, query, func() ([]float32, error) { return nadine.EmbedOne(ctx, emb, query) })
		if err != nil {
			rec.Note = "error: " + err.Error()
			tr.Fail("memory_retrieve_agent", err)
			return memoryHit{}, err
		}
		res, err := m.store.SearchMemories(ctx, userID, nadine.MemoryQuery{Embedding: v, Embedder: emb.Name(),
			Types: []nadine.MemoryType{typ}, K: 1})
		if err != nil {
			rec.Note = "error: " + err.Error()
			tr.Fail("memory_retrieve_agent", err)
			return memoryHit{}, err
		}
		if len(res) == 0 {
			rec.Note = "nothing stored"
			return memoryHit{}, nil
		}
		rec.Results = []nadine.RetrievedItem{{ID: strconv.FormatInt(res[0].ID, 10), Text: nadine.Shorten(res[0].Text, 200), Score: res[0].Score}}
		return memoryHit{m: res[0], ok: true}, nil
	})
}
