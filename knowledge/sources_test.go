package knowledge_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/knowledge"
	"github.com/nadine-robot/nadine/lexical"
)

// museum is a folder a lab would ingest: Markdown, text and a PDF.
func museum(t *testing.T) string {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "museum.md"), []byte("# Museum\n\n## Hours\n\nOpen from 10 to 18.\n\n## Shop\n\nPostcards and books.\n"))
	writeFile(t, filepath.Join(dir, "notes", "tickets.txt"), []byte("Tickets cost ten francs.\n\nChildren enter free.\n"))
	writeFile(t, filepath.Join(dir, "guide.pdf"), minimalPDF("The museum opens on Wednesday.\nTickets at the desk."))
	return dir
}

func ids(cs []nadine.KnowledgeChunk) []int64 {
	var out []int64
	for _, c := range cs {
		out = append(out, c.ID)
	}
	slices.Sort(out)
	return out
}

// TestReingest: ingesting the same folder again changes nothing and calls
// no embedder; a changed file has its chunks replaced and the others stay.
func TestReingest(t *testing.T) {
	ctx := context.Background()
	dir := museum(t)
	st := &memStore{}
	emb := &countingEmbedder{Embedder: lexical.New(32)}
	in := &knowledge.Ingester{Store: st, Embedder: emb}
	first, err := in.Run(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if first.Files != 3 || first.New != 3 || first.Changed != 0 || first.Unchanged != 0 || first.Chunks != 4 || len(st.all()) != 4 {
		t.Fatalf("first ingestion = %+v, %d chunks stored", first, len(st.all()))
	}
	srcs, _ := st.KnowledgeSources(ctx)
	if len(srcs) != 3 {
		t.Fatalf("sources = %+v", srcs)
	}
	for _, src := range srcs {
		if !filepath.IsAbs(src.Key) || !strings.HasPrefix(src.Hash, "sha256:") || src.Embedder != emb.Name() || src.Ingested.IsZero() || src.Builtin {
			t.Errorf("source %+v", src)
		}
	}
	before, calls, writes := ids(st.all()), len(emb.calls), st.adds

	again, err := in.Run(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if again != (knowledge.Report{Files: 3, Unchanged: 3}) {
		t.Errorf("second ingestion = %+v, want 3 unchanged files", again)
	}
	if !slices.Equal(ids(st.all()), before) || len(emb.calls) != calls || st.adds != writes {
		t.Errorf("an unchanged folder changed the store (ids %v → %v, %d embed calls, %d writes)", before, ids(st.all()), len(emb.calls)-calls, st.adds-writes)
	}

	// The ticket price changes: that file's chunk is replaced, nothing else.
	writeFile(t, filepath.Join(dir, "notes", "tickets.txt"), []byte("Tickets cost twelve francs.\n"))
	changed, err := in.Run(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if changed != (knowledge.Report{Files: 3, Changed: 1, Unchanged: 2, Chunks: 1}) {
		t.Errorf("after a change = %+v", changed)
	}
	var texts []string
	for _, c := range st.all() {
		texts = append(texts, c.Text)
	}
	joined := strings.Join(texts, "|")
	if strings.Contains(joined, "ten francs") || !strings.Contains(joined, "twelve francs") || len(texts) != 4 {
		t.Errorf("chunks after the change: %q", texts)
	}
	kept := 0
	for _, id := range ids(st.all()) {
		if slices.Contains(before, id) {
			kept++
		}
	}
	if kept != 3 {
		t.Errorf("%d of the unchanged files' 3 chunks kept", kept)
	}

	// Another embedder: every file is embedded again.
	other, err := (&knowledge.Ingester{Store: st, Embedder: lexical.New(16)}).Run(ctx, dir)
	if err != nil || other.Changed != 3 || other.Chunks != 4 {
		t.Errorf("with another embedder = %+v, %v", other, err)
	}
}

// TestReingestReplacesLegacyChunks: chunks stored before sources were
// recorded (under their relative Source, with no hash) are replaced when
// the file is ingested again, not duplicated.
func TestReingestReplacesLegacyChunks(t *testing.T) {
	ctx := context.Background()
	dir := museum(t)
	st := &memStore{}
	emb := lexical.New(32)
	v, _ := emb.Embed(ctx, []string{"old"})
	if err := st.AddKnowledge(ctx, []nadine.KnowledgeChunk{{Source: "museum.md", Title: "Museum > Hours", Text: "Open from 9 to 17.", Embedder: emb.Name(), Embedding: v[0]}}); err != nil {
		t.Fatal(err)
	}
	if _, err := knowledge.Ingest(ctx, st, emb, dir); err != nil {
		t.Fatal(err)
	}
	for _, c := range st.all() {
		if strings.Contains(c.Text, "9 to 17") {
			t.Errorf("the legacy chunk is still there: %+v", c)
		}
	}
	srcs, _ := st.KnowledgeSources(ctx)
	if len(srcs) != 3 {
		t.Errorf("sources = %+v, want the 3 files only", srcs)
	}
}

// TestRebuildKeepsWhatItWasGiven: a rebuild with a new embedder re-embeds
// the built-in documents and every ingested file, even one whose folder is
// gone, and takes the binary's new built-in documents.
func TestRebuildKeepsWhatItWasGiven(t *testing.T) {
	ctx := context.Background()
	st := &memStore{}
	old := lexical.New(32)
	builtinV1 := fstest.MapFS{
		"default/nadine.md": {Data: []byte("# Nadine\n\n## Who\n\nNadine is a social robot.\n")},
		"default/old.md":    {Data: []byte("# Old\n\nA document the next version drops.\n")},
	}
	if _, err := (&knowledge.Ingester{Store: st, Embedder: old, Builtin: true}).RunFS(ctx, builtinV1, "default"); err != nil {
		t.Fatal(err)
	}
	dir := museum(t)
	if _, err := knowledge.Ingest(ctx, st, old, dir); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	builtinV2 := fstest.MapFS{"default/nadine.md": {Data: []byte("# Nadine\n\n## Who\n\nNadine is a social humanoid robot.\n")}}
	fixed := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	emb := &countingEmbedder{Embedder: lexical.New(0)}
	rep, err := (&knowledge.Ingester{Store: st, Embedder: emb, Now: func() time.Time { return fixed }}).Rebuild(ctx, builtinV2, "default")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Files != 4 || rep.Chunks != 5 {
		t.Errorf("rebuild = %+v, want 4 sources (3 files, 1 built-in) and 5 chunks", rep)
	}
	for _, c := range st.all() {
		if c.Embedder != emb.Name() {
			t.Errorf("chunk %q embedded by %s, want %s", c.Title, c.Embedder, emb.Name())
		}
	}
	titles := titles(st.all())
	for _, want := range []string{"Museum > Hours", "Museum > Shop", "tickets", "guide, page 1", "Nadine > Who"} {
		if !slices.Contains(titles, want) {
			t.Errorf("rebuild lost %q: %q", want, titles)
		}
	}
	if slices.Contains(titles, "Old") {
		t.Errorf("the dropped built-in document is still there: %q", titles)
	}
	who, _ := find(st.all(), "Nadine > Who")
	if !strings.Contains(who.Text, "humanoid") {
		t.Errorf("the built-in document was not read again: %q", who.Text)
	}
	res, err := knowledge.Retrieve(ctx, st, emb, "how much do tickets cost", 1)
	if err != nil || len(res) != 1 || !strings.Contains(res[0].Text, "Tickets cost ten francs") {
		t.Errorf("search after the rebuild = %+v, %v", res, err)
	}
	srcs, _ := st.KnowledgeSources(ctx)
	for _, s := range srcs {
		if s.Builtin && !s.Ingested.Equal(fixed) {
			t.Errorf("built-in source %s ingested %v, want %v", s.Key, s.Ingested, fixed)
		}
	}

	// Without the built-in documents, the stored ones are re-embedded as
	// they are; a store failure changes nothing.
	rep, err = (&knowledge.Ingester{Store: st, Embedder: old}).Rebuild(ctx, nil, "")
	if err != nil || rep.Files != 4 || rep.Chunks != 5 {
		t.Errorf("rebuild without built-ins = %+v, %v", rep, err)
	}
	st.err = errors.New("disk full")
	if _, err := (&knowledge.Ingester{Store: st, Embedder: emb}).Rebuild(ctx, builtinV2, "default"); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("store failure: %v", err)
	}
}

// TestRebuildEmptyBuildsTheDefault: rebuilding an empty knowledge base
// builds the built-in documents.
func TestRebuildEmptyBuildsTheDefault(t *testing.T) {
	st := &memStore{}
	rep, err := (&knowledge.Ingester{Store: st, Embedder: lexical.New(32)}).Rebuild(context.Background(), knowledge.Default(), knowledge.DefaultRoot)
	if err != nil || rep.Chunks == 0 || rep.Chunks != len(st.all()) {
		t.Fatalf("rebuild of an empty base = %+v, %v (%d stored)", rep, err, len(st.all()))
	}
	srcs, _ := st.KnowledgeSources(context.Background())
	for _, s := range srcs {
		if !s.Builtin || !strings.HasPrefix(s.Key, knowledge.DefaultRoot+"/") {
			t.Errorf("source %+v, want a built-in one", s)
		}
	}
}

// TestPDFTextKeepsBoundaries: text laid out the way PDF writers do (one
// text object, lines moved with Td, T* and ', words spaced with TJ
// offsets or placed with Tm) keeps its word, line and paragraph
// boundaries.
func TestPDFTextKeepsBoundaries(t *testing.T) {
	tests := []struct {
		name, stream string
		want         []string // the page's chunks
	}{
		{"lines and a paragraph in one text object",
			"BT /F1 12 Tf 14 TL 72 720 Td (The museum opens on Wednesday.) Tj T* (Tickets cost ten francs.) Tj 0 -30 Td (Guided tours) Tj (start at noon.) ' ET\n",
			[]string{"The museum opens on Wednesday.\nTickets cost ten francs.\n\nGuided tours\nstart at noon."}},
		{"words spaced by TJ offsets",
			"BT /F1 12 Tf 72 720 Td [(Guided)-278(tours)-278(start)] TJ 0 -14 Td [(at)-250(no)15(on.)] TJ ET\n",
			[]string{"Guided tours start\nat noon."}},
		{"words placed with Tm",
			"BT /F1 12 Tf 1 0 0 1 72 700 Tm (Opening) Tj 1 0 0 1 130 700 Tm (hours) Tj 1 0 0 1 72 686 Tm (Monday to Friday) Tj ET\n",
			[]string{"Opening hours\nMonday to Friday"}},
		{"one text object a line", "BT /F1 12 Tf 72 720 Td (First line.) Tj ET\nBT /F1 12 Tf 72 706 Td (Second line.) Tj ET\n",
			[]string{"First line.\nSecond line."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &memStore{}
			fsys := fstest.MapFS{"guide.pdf": {Data: pdfWithContents(tt.stream)}}
			if _, err := knowledge.IngestFS(context.Background(), st, lexical.New(32), fsys, "."); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range st.all() {
				got = append(got, c.Text)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("chunks = %q\nwant     %q", got, tt.want)
			}
		})
	}
}
