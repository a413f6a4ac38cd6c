package knowledge_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/knowledge"
	"github.com/nadine-robot/nadine/lexical"
)

// minimalPDF writes a PDF with one page per text, each line shown in its
// own text object with the standard Helvetica font.
func minimalPDF(pages ...string) []byte {
	streams := make([]string, len(pages))
	for i, text := range pages {
		var s strings.Builder
		for j, line := range strings.Split(text, "\n") {
			fmt.Fprintf(&s, "BT /F1 12 Tf 72 %d Td (%s) Tj ET\n", 720-14*j, line)
		}
		streams[i] = s.String()
	}
	return pdfWithContents(streams...)
}

// pdfWithContents writes a PDF with one page per content stream, with the
// standard Helvetica font as F1, as a PDF writer would: objects, a
// cross-reference table with exact byte offsets, and a trailer.
func pdfWithContents(pages ...string) []byte {
	var buf bytes.Buffer
	buf.WriteString("%PDF-1.4\n")
	n := 3 + 2*len(pages) // catalog, pages, font, then a page and its content per page
	offsets := make([]int, n+1)
	obj := func(id int, body string) {
		offsets[id] = buf.Len()
		fmt.Fprintf(&buf, "%d 0 obj\n%s\nendobj\n", id, body)
	}
	var kids []string
	for i := range pages {
		kids = append(kids, fmt.Sprintf("%d 0 R", 4+2*i))
	}
	obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	obj(2, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages)))
	obj(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	for i, stream := range pages {
		page, content := 4+2*i, 5+2*i
		obj(page, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", content))
		obj(content, fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(stream), stream))
	}
	xref := buf.Len()
	fmt.Fprintf(&buf, "xref\n0 %d\n0000000000 65535 f \n", n+1)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&buf, "%010d 00000 n \n", offsets[i])
	}
	fmt.Fprintf(&buf, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", n+1, xref)
	return buf.Bytes()
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func find(chunks []nadine.KnowledgeChunk, title string) (nadine.KnowledgeChunk, bool) {
	for _, c := range chunks {
		if c.Title == title {
			return c, true
		}
	}
	return nadine.KnowledgeChunk{}, false
}

func TestIngestFolder(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "robot.md"), []byte("# Nadine\n## Lab\nNadine lives in a lab.\n\n![Nadine in the lab](images/lab.jpg)\n## Songs\nShe sings.\n"))
	writeFile(t, filepath.Join(dir, "images", "lab.jpg"), []byte("\xff\xd8\xff"))
	writeFile(t, filepath.Join(dir, "notes", "history.txt"), []byte("First paragraph about 2013.\n\nSecond paragraph about Geneva.\n"))
	writeFile(t, filepath.Join(dir, "platform.pdf"), minimalPDF("Nadine platform overview\nSpeech and faces", "Page two talks about animation"))
	writeFile(t, filepath.Join(dir, "broken.pdf"), []byte("%PDF-1.4\nthis is not a PDF at all\n"))
	writeFile(t, filepath.Join(dir, "photo.png"), []byte("\x89PNG"))
	writeFile(t, filepath.Join(dir, ".hidden.md"), []byte("# Secret\nhidden"))
	writeFile(t, filepath.Join(dir, ".git", "notes.md"), []byte("# Git\nhidden too"))

	st := &memStore{}
	emb := &countingEmbedder{Embedder: lexical.New(64)}
	var logs bytes.Buffer
	in := &knowledge.Ingester{Store: st, Embedder: emb, Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	n, err := in.Ingest(context.Background(), dir)

	// The broken PDF is reported, naming the file; the rest is stored.
	if err == nil || !strings.Contains(err.Error(), "broken.pdf") {
		t.Fatalf("err = %v, want an error naming broken.pdf", err)
	}
	chunks := st.all()
	if n != len(chunks) || n != 5 {
		t.Fatalf("Ingest returned %d, stored %d chunks, want 5 (2 Markdown sections, 1 text group, 2 PDF pages); titles: %v", n, len(chunks), titles(chunks))
	}
	if !strings.Contains(logs.String(), "photo.png") {
		t.Errorf("no debug line for the skipped photo.png:\n%s", logs.String())
	}

	lab, ok := find(chunks, "Nadine > Lab")
	if !ok {
		t.Fatalf("no Lab section in %v", titles(chunks))
	}
	if lab.Source != "robot.md" || lab.Text != "Nadine > Lab\n\nNadine lives in a lab." {
		t.Errorf("lab chunk = %+v", lab)
	}
	if got, want := lab.Metadata["visual"], filepath.Join(dir, "images", "lab.jpg"); got != want {
		t.Errorf("visual = %q, want %q", got, want)
	}
	if got := lab.Metadata["visual_caption"]; got != "Nadine in the lab" {
		t.Errorf("visual_caption = %q", got)
	}
	if songs, _ := find(chunks, "Nadine > Songs"); songs.Metadata != nil {
		t.Errorf("a section without image has metadata %v", songs.Metadata)
	}

	hist, ok := find(chunks, "history")
	if !ok || hist.Source != "notes/history.txt" || hist.Text != "First paragraph about 2013.\n\nSecond paragraph about Geneva." {
		t.Errorf("text chunk = %+v", hist)
	}

	p1, ok1 := find(chunks, "platform, page 1")
	p2, ok2 := find(chunks, "platform, page 2")
	if !ok1 || !ok2 {
		t.Fatalf("PDF pages missing: %v", titles(chunks))
	}
	if !strings.Contains(p1.Text, "Nadine platform overview") || !strings.Contains(p1.Text, "Speech and faces") || p1.Metadata["page"] != "1" {
		t.Errorf("PDF page 1 = %+v", p1)
	}
	if !strings.Contains(p2.Text, "Page two talks about animation") || p2.Metadata["page"] != "2" {
		t.Errorf("PDF page 2 = %+v", p2)
	}

	for _, c := range chunks {
		if c.Embedder != "lexical-v1-64" || len(c.Embedding) != 64 {
			t.Errorf("chunk %q: embedder %q, %d dims", c.Title, c.Embedder, len(c.Embedding))
		}
		if strings.Contains(c.Text, "hidden") {
			t.Errorf("hidden file ingested: %q", c.Title)
		}
	}
	if st.adds != 1 {
		t.Errorf("AddKnowledge called %d times, want once", st.adds)
	}
}

// The ledongthuc/pdf reader reads the hand-written fixture.
func TestMinimalPDFFixture(t *testing.T) {
	st := &memStore{}
	fsys := fstest.MapFS{"doc.pdf": {Data: minimalPDF("Hello (PDF) world")}}
	n, err := knowledge.IngestFS(context.Background(), st, lexical.New(32), fsys, ".")
	if err != nil || n != 1 {
		t.Fatalf("IngestFS = %d, %v", n, err)
	}
	if got := st.all()[0].Text; !strings.Contains(got, "Hello") {
		t.Errorf("PDF text = %q", got)
	}
}

func titles(cs []nadine.KnowledgeChunk) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Title)
	}
	return out
}

func TestIngestFSVisualIsFSPath(t *testing.T) {
	fsys := fstest.MapFS{
		"kb/docs/a.md":       {Data: []byte("## A\ntext\n![pic](../img/a.jpg)\n## B\n![remote](https://example.org/b.jpg)\nb text\n")},
		"kb/img/a.jpg":       {Data: []byte("x")},
		"kb/ignored.json":    {Data: []byte("{}")},
		"elsewhere/other.md": {Data: []byte("# Not under root\ntext")},
	}
	st := &memStore{}
	n, err := knowledge.IngestFS(context.Background(), st, lexical.New(32), fsys, "kb")
	if err != nil || n != 2 {
		t.Fatalf("IngestFS = %d, %v", n, err)
	}
	a, _ := find(st.all(), "A")
	b, _ := find(st.all(), "B")
	if a.Source != "kb/docs/a.md" || a.Metadata["visual"] != "kb/img/a.jpg" {
		t.Errorf("chunk A = %+v", a)
	}
	if b.Metadata["visual"] != "https://example.org/b.jpg" {
		t.Errorf("chunk B visual = %q", b.Metadata["visual"])
	}
}

func TestIngestBatches(t *testing.T) {
	var doc strings.Builder
	for i := range 70 {
		fmt.Fprintf(&doc, "## Section %d\nText of section %d.\n", i, i)
	}
	st := &memStore{}
	emb := &countingEmbedder{Embedder: lexical.New(32)}
	n, err := knowledge.IngestFS(context.Background(), st, emb, fstest.MapFS{"a.md": {Data: []byte(doc.String())}}, ".")
	if err != nil || n != 70 {
		t.Fatalf("IngestFS = %d, %v", n, err)
	}
	if want := []int{32, 32, 6}; !slices.Equal(emb.calls, want) {
		t.Errorf("Embed call sizes = %v, want %v", emb.calls, want)
	}
}

func TestIngestFailures(t *testing.T) {
	ctx := context.Background()
	fsys := fstest.MapFS{"a.md": {Data: []byte("# A\ntext")}}

	// An embedder failure stores nothing.
	st := &memStore{}
	emb := &countingEmbedder{Embedder: lexical.New(32), err: errors.New("model down")}
	if n, err := knowledge.IngestFS(ctx, st, emb, fsys, "."); err == nil || n != 0 || !strings.Contains(err.Error(), "model down") {
		t.Errorf("embedder failure: %d, %v", n, err)
	}
	if len(st.all()) != 0 {
		t.Errorf("stored %d chunks after an embedder failure", len(st.all()))
	}

	// A store failure is returned.
	st = &memStore{err: errors.New("disk full")}
	if n, err := knowledge.IngestFS(ctx, st, lexical.New(32), fsys, "."); err == nil || n != 0 || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("store failure: %d, %v", n, err)
	}

	// Missing folders.
	if _, err := knowledge.Ingest(ctx, &memStore{}, lexical.New(32), filepath.Join(t.TempDir(), "missing")); nadine.ErrorCode(err) != nadine.ENOTFOUND {
		t.Errorf("missing dir: err = %v, want ENOTFOUND", err)
	}
	if _, err := knowledge.IngestFS(ctx, &memStore{}, lexical.New(32), fsys, "missing"); nadine.ErrorCode(err) != nadine.ENOTFOUND {
		t.Errorf("missing root: err = %v, want ENOTFOUND", err)
	}

	// A canceled context stops the walk.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := knowledge.IngestFS(cctx, &memStore{}, lexical.New(32), fsys, "."); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: err = %v", err)
	}
}
