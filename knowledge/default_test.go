package knowledge_test

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/knowledge"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/sqlite"
)

func openStore(t *testing.T) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "nadine.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestDefaultKnowledgeBase(t *testing.T) {
	files, err := fs.Glob(knowledge.Default(), knowledge.DefaultRoot+"/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 3 || len(files) > 5 {
		t.Fatalf("default knowledge base has %d files, want 3 to 5", len(files))
	}
	for _, f := range files {
		b, err := fs.ReadFile(knowledge.Default(), f)
		if err != nil {
			t.Fatal(err)
		}
		secs := knowledge.SplitMarkdown(f, string(b), 0)
		if len(secs) < 3 {
			t.Errorf("%s has %d sections, want several", f, len(secs))
		}
		for _, s := range secs {
			if !strings.Contains(s.Title, " > ") {
				t.Errorf("%s: section %q is not under a # title and a ## header", f, s.Title)
			}
		}
	}
}

func TestEnsureDefault(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	emb := lexical.New(0)

	built, err := knowledge.EnsureDefault(ctx, st, emb)
	if err != nil || !built {
		t.Fatalf("first EnsureDefault = %v, %v; want true, nil", built, err)
	}
	n, err := st.KnowledgeCount(ctx)
	if err != nil || n < 12 {
		t.Fatalf("KnowledgeCount = %d, %v; want the default sections", n, err)
	}

	built, err = knowledge.EnsureDefault(ctx, st, emb)
	if err != nil || built {
		t.Fatalf("second EnsureDefault = %v, %v; want false, nil", built, err)
	}
	if again, _ := st.KnowledgeCount(ctx); again != n {
		t.Errorf("KnowledgeCount after the second call = %d, want %d", again, n)
	}

	// Knowledge of another vector space cannot be searched: say so.
	built, err = knowledge.EnsureDefault(ctx, st, lexical.New(128))
	if built || nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("EnsureDefault with another embedder = %v, %v; want false, EINVALID", built, err)
	}
}

func TestRetrieve(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	emb := lexical.New(0)
	if _, err := knowledge.EnsureDefault(ctx, st, emb); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		want  []string // all in the best chunk's text
	}{
		{"Who built you?", []string{"Thalmann", "Nanyang Technological University"}},
		{"Which languages do you speak?", []string{"English", "French", "German", "Chinese"}},
		{"Can you sing a song for me?", []string{"sing"}},
		{"Do you remember me?", []string{"remember"}},
		{"How does your speech recognition work?", []string{"speech recognition"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			tr := nadine.NewTrace("t", tt.query, time.Now())
			got, err := knowledge.Retrieve(nadine.WithTrace(ctx, tr), st, emb, tt.query, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != knowledge.DefaultK {
				t.Fatalf("got %d chunks, want %d", len(got), knowledge.DefaultK)
			}
			for _, w := range tt.want {
				if !strings.Contains(got[0].Text, w) {
					t.Errorf("best chunk %q (%.3f) does not mention %q; ranking: %v", got[0].Title, got[0].Score, w, ranking(got))
				}
			}
			for i := 1; i < len(got); i++ {
				if got[i].Score > got[i-1].Score {
					t.Errorf("results not best first: %v", ranking(got))
				}
			}
			rs := tr.Snapshot().Retrievals
			if len(rs) != 1 || rs[0].Kind != "knowledge" || rs[0].Query != tt.query || len(rs[0].Results) != len(got) {
				t.Fatalf("trace retrievals = %+v", rs)
			}
			for _, r := range rs[0].Results {
				if utf8.RuneCountInString(r.Text) > 200 {
					t.Errorf("trace text of %d runes, want at most 200", utf8.RuneCountInString(r.Text))
				}
			}
		})
	}
}

func ranking(cs []nadine.ScoredChunk) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Title)
	}
	return out
}

func TestRetrieveErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := knowledge.Retrieve(ctx, &memStore{}, lexical.New(32), "  ", 3); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("empty query: err = %v, want EINVALID", err)
	}
	tr := nadine.NewTrace("t", "q", time.Now())
	_, err := knowledge.Retrieve(nadine.WithTrace(ctx, tr), &memStore{err: errors.New("db locked")}, lexical.New(32), "hello", 3)
	if err == nil || !strings.Contains(err.Error(), "db locked") {
		t.Fatalf("store failure: err = %v", err)
	}
	d := tr.Snapshot()
	if len(d.Failures) != 1 || d.Failures[0].Stage != "knowledge" {
		t.Errorf("failures = %+v", d.Failures)
	}
	if len(d.Retrievals) != 1 || !strings.Contains(d.Retrievals[0].Note, "db locked") {
		t.Errorf("retrievals = %+v", d.Retrievals)
	}
}

func TestRetrieveK(t *testing.T) {
	ctx := context.Background()
	st := &memStore{}
	emb := lexical.New(64)
	if _, err := knowledge.EnsureDefault(ctx, st, emb); err != nil {
		t.Fatal(err)
	}
	got, err := knowledge.Retrieve(ctx, st, emb, "Nadine", 1)
	if err != nil || len(got) != 1 {
		t.Fatalf("Retrieve(k=1) = %d chunks, %v", len(got), err)
	}
}
