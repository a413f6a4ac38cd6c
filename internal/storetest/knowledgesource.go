package storetest

import (
	"slices"
	"testing"

	"github.com/nadine-robot/nadine"
)

// sourceChunk is a chunk of a source's document, embedded by e1.
func sourceChunk(name, title, text string, v ...float32) nadine.KnowledgeChunk {
	return nadine.KnowledgeChunk{Source: name, Title: title, Text: text, Embedder: "e1", Embedding: v,
		Metadata: map[string]string{"page": title}}
}

func sourcesByKey(t *testing.T, s nadine.Store) map[string]nadine.KnowledgeSource {
	t.Helper()
	list, err := s.KnowledgeSources(t.Context())
	must(t, "KnowledgeSources", err)
	out := map[string]nadine.KnowledgeSource{}
	var keys []string
	for _, src := range list {
		out[src.Key] = src
		keys = append(keys, src.Key)
	}
	if !slices.IsSorted(keys) {
		t.Errorf("KnowledgeSources not ordered by key: %q", keys)
	}
	return out
}

func chunkTitles(t *testing.T, s nadine.Store, key string) []string {
	t.Helper()
	cs, err := s.KnowledgeChunks(t.Context(), key)
	must(t, "KnowledgeChunks "+key, err)
	var out []string
	for _, c := range cs {
		out = append(out, c.Title)
	}
	return out
}

// testKnowledgeSources: PutKnowledge records sources and replaces their
// chunks; KnowledgeSources and KnowledgeChunks read them back.
func testKnowledgeSources(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	a := nadine.KnowledgeSource{Key: "/srv/kb/a.md", Name: "a.md", Hash: "sha256:aaaa", Ingested: t0}
	b := nadine.KnowledgeSource{Key: "default/nadine.md", Name: "default/nadine.md", Builtin: true, Hash: "sha256:bbbb", Ingested: t0.Add(1e9)}
	must(t, "PutKnowledge", s.PutKnowledge(ctx, []nadine.KnowledgeDocument{
		{Source: a, Chunks: []nadine.KnowledgeChunk{
			sourceChunk("a.md", "A1", "Tickets cost ten francs.", 1, 0, 0),
			sourceChunk("a.md", "A2", "The museum opens on Wednesday.", 0, 1, 0),
		}},
		{Source: b, Chunks: []nadine.KnowledgeChunk{sourceChunk("default/nadine.md", "B1", "Nadine is a social robot.", 0, 0, 1)}},
	}))
	must(t, "PutKnowledge of nothing", s.PutKnowledge(ctx, nil))
	got := sourcesByKey(t, s)
	if len(got) != 2 {
		t.Fatalf("KnowledgeSources = %+v, want 2", got)
	}
	ga, gb := got[a.Key], got[b.Key]
	if ga.Name != "a.md" || ga.Builtin || ga.Hash != a.Hash || !ga.Ingested.Equal(a.Ingested) || ga.Chunks != 2 || ga.Embedder != "e1" {
		t.Errorf("source a = %+v", ga)
	}
	if gb.Name != b.Name || !gb.Builtin || gb.Hash != b.Hash || !gb.Ingested.Equal(b.Ingested) || gb.Chunks != 1 {
		t.Errorf("source b = %+v", gb)
	}
	cs, err := s.KnowledgeChunks(ctx, a.Key)
	must(t, "KnowledgeChunks", err)
	if len(cs) != 2 || cs[0].Title != "A1" || cs[1].Title != "A2" || cs[0].Source != "a.md" || cs[0].Text != "Tickets cost ten francs." ||
		cs[0].Metadata["page"] != "A1" || cs[0].Embedder != "e1" || !slices.Equal(cs[1].Embedding, []float32{0, 1, 0}) || cs[0].ID == 0 {
		t.Errorf("KnowledgeChunks = %+v", cs)
	}
	if n, err := s.KnowledgeCount(ctx); err != nil || n != 3 {
		t.Errorf("KnowledgeCount = %d, %v; want 3", n, err)
	}

	// A changed file replaces its chunks; the other source is untouched.
	a2 := a
	a2.Hash, a2.Ingested = "sha256:a2a2", t0.Add(2e9)
	must(t, "PutKnowledge again", s.PutKnowledge(ctx, []nadine.KnowledgeDocument{
		{Source: a2, Chunks: []nadine.KnowledgeChunk{sourceChunk("a.md", "A3", "The museum opens on Thursday.", 0, 1, 0)}},
	}))
	if got := chunkTitles(t, s, a.Key); !slices.Equal(got, []string{"A3"}) {
		t.Errorf("chunks of the replaced source = %q, want [A3]", got)
	}
	res, err := s.SearchKnowledge(ctx, []float32{0, 1, 0}, "e1", 5)
	must(t, "SearchKnowledge", err)
	var titles []string
	for _, r := range res {
		titles = append(titles, r.Title)
	}
	if slices.Contains(titles, "A1") || slices.Contains(titles, "A2") || !slices.Contains(titles, "A3") || !slices.Contains(titles, "B1") {
		t.Errorf("SearchKnowledge after the replacement = %q, want A3 and B1 only", titles)
	}
	if got := sourcesByKey(t, s)[a.Key]; got.Hash != "sha256:a2a2" || got.Chunks != 1 || !got.Ingested.Equal(a2.Ingested) {
		t.Errorf("replaced source = %+v", got)
	}

	// A document can supersede another source; an empty one is recorded.
	c := nadine.KnowledgeSource{Key: "/srv/kb2/a.md", Name: "a.md", Hash: "sha256:cccc", Ingested: t0}
	empty := nadine.KnowledgeSource{Key: "/srv/kb/empty.txt", Name: "empty.txt", Hash: "sha256:e3b0", Ingested: t0}
	must(t, "PutKnowledge with Replaces", s.PutKnowledge(ctx, []nadine.KnowledgeDocument{
		{Source: c, Chunks: []nadine.KnowledgeChunk{sourceChunk("a.md", "C1", "Moved.", 1, 1, 0)}, Replaces: []string{a.Key}},
		{Source: empty},
	}))
	got = sourcesByKey(t, s)
	if _, ok := got[a.Key]; ok {
		t.Errorf("the superseded source is still recorded: %+v", got)
	}
	if len(chunkTitles(t, s, a.Key)) != 0 || !slices.Equal(chunkTitles(t, s, c.Key), []string{"C1"}) {
		t.Errorf("chunks: a %q, c %q", chunkTitles(t, s, a.Key), chunkTitles(t, s, c.Key))
	}
	if e, ok := got[empty.Key]; !ok || e.Chunks != 0 || e.Embedder != "" || e.Hash != empty.Hash {
		t.Errorf("empty source = %+v (recorded %v)", e, ok)
	}
	if cs, err := s.KnowledgeChunks(ctx, "/no/such/file.md"); err != nil || len(cs) != 0 {
		t.Errorf("KnowledgeChunks of an unknown key = %+v, %v", cs, err)
	}
	wantCode(t, "PutKnowledge without a key", s.PutKnowledge(ctx, []nadine.KnowledgeDocument{{Source: nadine.KnowledgeSource{Name: "x"}}}), nadine.EINVALID)

	// One source removed on its own: its chunks in every space, not the
	// others'.
	must(t, "PutKnowledge c again", s.PutKnowledge(ctx, []nadine.KnowledgeDocument{
		{Source: c, Chunks: []nadine.KnowledgeChunk{sourceChunk("a.md", "C1", "Moved.", 1, 1, 0),
			{Source: "a.md", Title: "C1 lexical", Text: "Moved.", Embedder: "e2", Embedding: []float32{1, 0}}}},
	}))
	n, err := s.RemoveKnowledge(ctx, c.Key, "/no/such/file.md")
	must(t, "RemoveKnowledge", err)
	if n != 1 {
		t.Errorf("RemoveKnowledge = %d, want 1 (one key was recorded)", n)
	}
	got = sourcesByKey(t, s)
	if _, ok := got[c.Key]; ok || len(chunkTitles(t, s, c.Key)) != 0 {
		t.Errorf("the removed source is still there: %+v", got)
	}
	if _, ok := got[b.Key]; !ok || !slices.Equal(chunkTitles(t, s, b.Key), []string{"B1"}) {
		t.Errorf("another source lost with the removed one: %+v", got)
	}
	for _, e := range []string{"e1", "e2"} {
		res, err := s.SearchKnowledge(ctx, []float32{1, 1, 0}[:map[string]int{"e1": 3, "e2": 2}[e]], e, 5)
		must(t, "SearchKnowledge "+e, err)
		for _, r := range res {
			if r.Text == "Moved." {
				t.Errorf("a chunk of the removed source is still found in %s: %+v", e, r)
			}
		}
	}
	if n, err := s.RemoveKnowledge(ctx); err != nil || n != 0 {
		t.Errorf("RemoveKnowledge of nothing = %d, %v", n, err)
	}

	must(t, "ClearKnowledge", s.ClearKnowledge(ctx))
	if got := sourcesByKey(t, s); len(got) != 0 {
		t.Errorf("sources after ClearKnowledge = %+v", got)
	}
}

// testKnowledgeAddRecordsSources: chunks stored with AddKnowledge belong to
// a source named after their Source.
func testKnowledgeAddRecordsSources(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	must(t, "AddKnowledge", s.AddKnowledge(ctx, []nadine.KnowledgeChunk{
		sourceChunk("wiki.txt", "W1", "Nadine was unveiled in 2013.", 1, 0),
		sourceChunk("wiki.txt", "W2", "She works in Geneva.", 0, 1),
		sourceChunk("notes.md", "N1", "Notes.", 1, 1),
	}))
	got := sourcesByKey(t, s)
	if w := got["wiki.txt"]; w.Name != "wiki.txt" || w.Chunks != 2 || w.Hash != "" || w.Builtin {
		t.Errorf("source of AddKnowledge = %+v", w)
	}
	if !slices.Equal(chunkTitles(t, s, "wiki.txt"), []string{"W1", "W2"}) || !slices.Equal(chunkTitles(t, s, "notes.md"), []string{"N1"}) {
		t.Errorf("chunks: wiki %q, notes %q", chunkTitles(t, s, "wiki.txt"), chunkTitles(t, s, "notes.md"))
	}
	// Adding more to a known source keeps its record and adds chunks.
	must(t, "AddKnowledge again", s.AddKnowledge(ctx, []nadine.KnowledgeChunk{sourceChunk("wiki.txt", "W3", "More.", 1, 0)}))
	if w := sourcesByKey(t, s)["wiki.txt"]; w.Chunks != 3 {
		t.Errorf("source after a second AddKnowledge = %+v", w)
	}
}
