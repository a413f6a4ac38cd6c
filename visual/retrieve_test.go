package visual_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/visual"
)

// Scenes with hand-made unit vectors: image vectors in a 2-D "CLIP" space,
// description vectors in a 2-D text space. cos((1,0), (a,b)) = a for unit
// (a,b).
func retrieverFixture(t *testing.T) (*memStore, *mapEmbedder, *mapEmbedder) {
	t.Helper()
	st := newMemStore()
	day := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	err := st.UpsertScenes(context.Background(), []nadine.Scene{
		// image 0.9, description 0.5 → 0.7·0.9 + 0.3·0.5 = 0.78
		{UserID: "u1", SceneID: "a", Time: day, Description: "beach", ImageEmbedding: []float32{0.9, float32(math.Sqrt(1 - 0.81))}, DescriptionEmbedding: []float32{0.5, float32(math.Sqrt(0.75))}, DescriptionEmbedder: "text"},
		// image 0.6, description 1.0 → 0.42 + 0.3 = 0.72
		{UserID: "u1", SceneID: "b", Time: day.Add(time.Hour), Description: "party", ImageEmbedding: []float32{0.6, 0.8}, DescriptionEmbedding: []float32{1, 0}, DescriptionEmbedder: "text"},
		// description embedded by another embedder: image only, 0.8
		{UserID: "u1", SceneID: "c", Time: day.Add(2 * time.Hour), Description: "office", ImageEmbedding: []float32{0.8, 0.6}, DescriptionEmbedding: []float32{1, 0}, DescriptionEmbedder: "other"},
		// no vector at all: never scored
		{UserID: "u1", SceneID: "d", Time: day},
		{UserID: "u2", SceneID: "z", Time: day, ImageEmbedding: []float32{1, 0}, DescriptionEmbedding: []float32{1, 0}, DescriptionEmbedder: "text"},
	})
	if err != nil {
		t.Fatal(err)
	}
	clip := &mapEmbedder{name: "clip", vecs: map[string][]float32{"q": {1, 0}, "anti": {-1, 0}}}
	text := &mapEmbedder{name: "text", vecs: map[string][]float32{"q": {1, 0}, "anti": {0, 1}}}
	return st, clip, text
}

func TestRetrieverBest(t *testing.T) {
	tests := []struct {
		name      string
		clip      bool
		alpha     float64
		threshold float64
		question  string
		wantID    string // "" for no scene
		wantScore float64
	}{
		// a: 0.78, b: 0.72, c: 0.8 (image only)
		{name: "blend, default alpha and threshold", clip: true, question: "q", wantID: "c", wantScore: 0.8},
		// alpha 0.9: a = 0.81+0.05 = 0.86, b = 0.54+0.1 = 0.64, c = 0.8
		{name: "alpha weighs image", clip: true, alpha: 0.9, question: "q", wantID: "a", wantScore: 0.86},
		// alpha 0.1: a = 0.09+0.45 = 0.54, b = 0.06+0.9 = 0.96, c = 0.8
		{name: "alpha weighs description", clip: true, alpha: 0.1, question: "q", wantID: "b", wantScore: 0.96},
		{name: "below threshold", clip: true, threshold: 0.85, question: "q", wantID: "", wantScore: 0.8},
		{name: "at threshold is used", clip: false, threshold: 1, question: "q", wantID: "b", wantScore: 1},
		// description only: a 0.5, b 1.0; c is not comparable
		{name: "description only", clip: false, question: "q", wantID: "b", wantScore: 1},
		// anti: text (0,1) → a 0.866, b 0
		{name: "description only, other question", clip: false, question: "anti", wantID: "a", wantScore: math.Sqrt(0.75)},
		{name: "negative threshold accepts anything", clip: true, threshold: -1, question: "anti", wantID: "a", wantScore: 0.7*-0.9 + 0.3*math.Sqrt(0.75)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, clip, text := retrieverFixture(t)
			r := &visual.Retriever{Store: st, Description: text, Alpha: tt.alpha, Threshold: tt.threshold}
			if tt.clip {
				r.TextToImage = clip
			}
			got, score, err := r.Best(context.Background(), "u1", tt.question)
			if err != nil {
				t.Fatal(err)
			}
			gotID := ""
			if got != nil {
				gotID = got.SceneID
			}
			if gotID != tt.wantID {
				t.Errorf("scene = %q, want %q", gotID, tt.wantID)
			}
			if math.Abs(score-tt.wantScore) > 1e-6 {
				t.Errorf("score = %v, want %v", score, tt.wantScore)
			}
		})
	}
}

func TestRetrieverTrace(t *testing.T) {
	st, clip, text := retrieverFixture(t)
	tests := []struct {
		name     string
		r        *visual.Retriever
		wantNote string
		noNote   string
	}{
		{"description only is noted", &visual.Retriever{Store: st, Description: text}, visual.NoteDescriptionOnly, ""},
		{"with CLIP there is no such note", &visual.Retriever{Store: st, Description: text, TextToImage: clip}, "", visual.NoteDescriptionOnly},
		{"CLIP failure falls back", &visual.Retriever{Store: st, Description: text, TextToImage: &mapEmbedder{name: "clip", err: errors.New("connection refused")}}, "CLIP text encoder failed", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := nadine.NewTrace("t", "q", time.Now())
			got, _, err := tt.r.Best(nadine.WithTrace(context.Background(), tr), "u1", "q")
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				t.Fatal("no scene")
			}
			d := tr.Snapshot()
			if len(d.Retrievals) != 1 {
				t.Fatalf("%d retrievals recorded, want 1", len(d.Retrievals))
			}
			rec := d.Retrievals[0]
			if rec.Kind != "visual" || rec.Query != "q" {
				t.Errorf("retrieval = %+v", rec)
			}
			if len(rec.Results) == 0 || rec.Results[0].ID != got.SceneID {
				t.Errorf("results = %+v, want %s first", rec.Results, got.SceneID)
			}
			if tt.wantNote != "" && !strings.Contains(rec.Note, tt.wantNote) {
				t.Errorf("note = %q, want it to contain %q", rec.Note, tt.wantNote)
			}
			if tt.noNote != "" && strings.Contains(rec.Note, tt.noNote) {
				t.Errorf("note = %q, should not contain %q", rec.Note, tt.noNote)
			}
		})
	}
}

func TestRetrieverCLIPFailureRecorded(t *testing.T) {
	st, _, text := retrieverFixture(t)
	r := &visual.Retriever{Store: st, Description: text, TextToImage: &mapEmbedder{name: "clip", err: errors.New("boom")}}
	tr := nadine.NewTrace("t", "q", time.Now())
	got, _, err := r.Best(nadine.WithTrace(context.Background(), tr), "u1", "q")
	if err != nil || got == nil || got.SceneID != "b" {
		t.Fatalf("Best = %v, %v; want scene b by description", got, err)
	}
	if f := tr.Snapshot().Failures; len(f) != 1 || f[0].Stage != "visual:text_to_image" {
		t.Errorf("failures = %+v", f)
	}
}

func TestRetrieverEdgeCases(t *testing.T) {
	st, clip, text := retrieverFixture(t)
	ctx := context.Background()
	r := &visual.Retriever{Store: st, Description: text, TextToImage: clip}
	for _, user := range []string{"", nadine.UnknownUser, "nobody"} {
		if got, score, err := r.Best(ctx, user, "q"); got != nil || score != 0 || err != nil {
			t.Errorf("Best(%q) = %v, %v, %v; want nil, 0, nil", user, got, score, err)
		}
	}
	if _, _, err := r.Best(ctx, "u1", "  "); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("empty question: err = %v, want EINVALID", err)
	}
	if _, _, err := (&visual.Retriever{Store: st}).Best(ctx, "u1", "q"); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("no embedder: err = %v, want EINVALID", err)
	}
	st.err = errors.New("disk on fire")
	if _, _, err := r.Best(ctx, "u1", "q"); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("store failure: err = %v", err)
	}
}
