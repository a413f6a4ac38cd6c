package visual_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/sqlite"
	"github.com/nadine-robot/nadine/visual"
)

// Perception's folder indexed into the real store, then recalled by a
// question with the lexical embedder (description similarity only).
func TestIndexAndRecallSQLite(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "nadine.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	emb := lexical.New(0)
	ix := &visual.Indexer{Store: st, Description: emb, Location: time.UTC}
	if n, err := ix.IndexAll(ctx, sceneFixture(t)); err != nil || n != 4 {
		t.Fatalf("IndexAll = %d, %v", n, err)
	}
	r := &visual.Retriever{Store: st, Description: emb, Threshold: 0.2}
	tr := nadine.NewTrace("t", "", time.Now())
	got, score, err := r.Best(nadine.WithTrace(ctx, tr), "u1", "do you remember my red jacket?")
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.SceneID != "scene_20250301_101500" {
		t.Fatalf("Best = %+v (%.3f), want the red jacket scene", got, score)
	}
	if len(got.ImageEmbedding) != 3 {
		t.Errorf("recalled scene has %d image dims, want 3", len(got.ImageEmbedding))
	}
	rs := tr.Snapshot().Retrievals
	if len(rs) != 1 || rs[0].Note != visual.NoteDescriptionOnly {
		t.Errorf("retrievals = %+v", rs)
	}
}
