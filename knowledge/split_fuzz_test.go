package knowledge_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/nadine-robot/nadine/knowledge"
	"github.com/nadine-robot/nadine/lexical"
)

// markdownSeeds are knowledge documents as people write them.
var markdownSeeds = []string{
	"# Nadine\nNadine is a social humanoid robot.\n\n## History\nFirst presented in 2013 at NTU.\n\n![Nadine at NTU](images/ntu.jpg \"NTU\")\n",
	"Intro before any header.\n# Title\n```\n# not a header\n```\ntext\n",
	"## Only a subheader\r\nWindows line ends\r\n\r\nSecond paragraph.",
	"# Long\n" + strings.Repeat("A sentence about MIRALab. ", 200),
	"#NoSpace\n####### seven\n   # indented\n~~~\nfence\n~~~",
	"",
}

// FuzzSplitMarkdown: a Markdown document splits into sections of at most
// the limit (and a title each), whatever it holds; plain text into groups
// of at most the limit.
func FuzzSplitMarkdown(f *testing.F) {
	for _, s := range markdownSeeds {
		f.Add(s, 200)
	}
	f.Fuzz(func(t *testing.T, text string, max int) {
		max = 50 + abs(max)%2000
		for _, s := range knowledge.SplitMarkdown("doc", text, max) {
			if s.Title == "" {
				t.Fatalf("section without a title from %q", text)
			}
			body := strings.TrimPrefix(s.Text, s.Title)
			if n := utf8.RuneCountInString(body); n > max+utf8.RuneCountInString(s.Title)+2 {
				t.Fatalf("section of %d runes, limit %d", n, max)
			}
		}
		for _, g := range knowledge.SplitParagraphs(text, max) {
			if n := utf8.RuneCountInString(g); n > max {
				t.Fatalf("group of %d runes, limit %d", n, max)
			}
			if strings.TrimSpace(g) == "" {
				t.Fatalf("empty group from %q", text)
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -(n + 1)
	}
	return n
}

// FuzzPDFText ingests PDF files, well formed or broken: nothing panics,
// a broken file is an error naming it, and every stored chunk is text.
func FuzzPDFText(f *testing.F) {
	f.Add(minimalPDF("Nadine platform overview\nSpeech and faces", "Page two talks about animation"))
	f.Add(minimalPDF("Une page en français : l'été à Genève"))
	f.Add([]byte("%PDF-1.4\nthis is not a PDF at all\n"))
	f.Add([]byte("%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF"))
	f.Add([]byte{})
	emb := lexical.New(64)
	f.Fuzz(func(t *testing.T, data []byte) {
		store := &memStore{}
		_, err := knowledge.IngestFS(context.Background(), store, emb, fstest.MapFS{"doc.pdf": {Data: data}}, ".")
		if err != nil && !strings.Contains(err.Error(), "doc.pdf") {
			t.Fatalf("error does not name the file: %v", err)
		}
		for _, c := range store.chunks {
			if !utf8.ValidString(c.Text) || strings.TrimSpace(c.Text) == "" {
				t.Fatalf("chunk %q from a PDF", c.Text)
			}
		}
	})
}
