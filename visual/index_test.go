package visual_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/visual"
)

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// sceneFixture writes perception's folder for user u1:
//   - scene_20250301_101500: (1, 3) f4 embedding, ISO timestamp, description,
//     image_path from another machine (resolved to the local images folder);
//   - scene_20250302_080000: no embedding file, Unix timestamp, no
//     description, relative image path;
//   - scene_20250303_090000: malformed JSON, skipped;
//   - scene_20250304_120000: (D,) f8 embedding, no timestamp (taken from the
//     id).
//
// and one scene for u2, plus an "unknown" folder that IndexAll skips.
func sceneFixture(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	u1 := filepath.Join(root, "u1", "memorable_scenes")
	writeFile(t, filepath.Join(u1, "images", "scene_20250301_101500.jpg"), jpeg)
	writeFile(t, filepath.Join(u1, "images", "scene_20250302_080000.jpg"), jpeg)
	writeFile(t, filepath.Join(u1, "embeddings", "scene_20250301_101500_embedding.npy"),
		npyFile(1, header("<f4", false, "(1, 3)"), f4(0.1, 0.2, 0.3)))
	writeFile(t, filepath.Join(u1, "embeddings", "scene_20250304_120000_embedding.npy"),
		npyFile(2, header("<f8", false, "(3,)"), f8(1, 0, 0)))
	writeFile(t, filepath.Join(u1, "metadata", "scene_20250301_101500_metadata.json"), []byte(`{
		"scene_id": "scene_20250301_101500",
		"timestamp": "2025-03-01T10:15:00.250000",
		"image_path": "/home/perception/db/u1/memorable_scenes/images/scene_20250301_101500.jpg",
		"memorability": 0.83,
		"emotion_probs": {"happy": 0.7, "neutral": 0.3},
		"description": "Alex waving in a red jacket at the lab"
	}`))
	writeFile(t, filepath.Join(u1, "metadata", "scene_20250302_080000_metadata.json"), []byte(`{
		"scene_id": "scene_20250302_080000",
		"timestamp": 1740902400,
		"image_path": "images/scene_20250302_080000.jpg",
		"memorability": 0.5
	}`))
	writeFile(t, filepath.Join(u1, "metadata", "scene_20250303_090000_metadata.json"), []byte(`{"scene_id": "scene_2025`))
	writeFile(t, filepath.Join(u1, "metadata", "scene_20250304_120000_metadata.json"), []byte(`{
		"memorability": 0.9,
		"description": "Alex holding a cup of coffee"
	}`))
	writeFile(t, filepath.Join(u1, "metadata", "notes.txt"), []byte("not a scene"))
	u2 := filepath.Join(root, "u2", "memorable_scenes")
	writeFile(t, filepath.Join(u2, "metadata", "scene_20250101_000000_metadata.json"), []byte(`{"scene_id": "scene_20250101_000000", "timestamp": "2025-01-01 00:00:00", "description": "fireworks"}`))
	unk := filepath.Join(root, nadine.UnknownUser, "memorable_scenes")
	writeFile(t, filepath.Join(unk, "metadata", "scene_20250101_000000_metadata.json"), []byte(`{"description": "a stranger"}`))
	return root
}

// jpeg is the start of a JPEG file, enough for content sniffing.
var jpeg = []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9")

func descEmbedder() *mapEmbedder {
	return &mapEmbedder{name: "text", vecs: map[string][]float32{
		"Alex waving in a red jacket at the lab": {1, 0},
		"Alex holding a cup of coffee":           {0, 1},
		"fireworks":                              {0.6, 0.8},
	}}
}

func TestIndex(t *testing.T) {
	root := sceneFixture(t)
	st := newMemStore()
	emb := descEmbedder()
	var logs bytes.Buffer
	ix := &visual.Indexer{Store: st, Description: emb, Location: time.UTC, Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	ctx := context.Background()

	n, err := ix.Index(ctx, root, "u1")
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Fatalf("indexed %d scenes, want 3", n)
	}
	if !strings.Contains(logs.String(), "scene_20250303_090000_metadata.json") {
		t.Errorf("no warning names the malformed file; logs:\n%s", logs.String())
	}
	got, err := st.Scenes(ctx, "u1")
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(root, "u1", "memorable_scenes")
	want := []nadine.Scene{
		{
			UserID: "u1", SceneID: "scene_20250301_101500",
			Time:         time.Date(2025, 3, 1, 10, 15, 0, 250000000, time.UTC),
			ImagePath:    filepath.Join(base, "images", "scene_20250301_101500.jpg"),
			Memorability: 0.83, EmotionProbs: map[string]float64{"happy": 0.7, "neutral": 0.3},
			Description:    "Alex waving in a red jacket at the lab",
			ImageEmbedding: []float32{0.1, 0.2, 0.3}, DescriptionEmbedding: []float32{1, 0}, DescriptionEmbedder: "text",
		},
		{
			UserID: "u1", SceneID: "scene_20250302_080000",
			Time:         time.Unix(1740902400, 0).UTC(),
			ImagePath:    filepath.Join(base, "images", "scene_20250302_080000.jpg"),
			Memorability: 0.5,
		},
		{
			UserID: "u1", SceneID: "scene_20250304_120000",
			Time:         time.Date(2025, 3, 4, 12, 0, 0, 0, time.UTC),
			ImagePath:    filepath.Join(base, "images", "scene_20250304_120000.jpg"),
			Memorability: 0.9, Description: "Alex holding a cup of coffee",
			ImageEmbedding: []float32{1, 0, 0}, DescriptionEmbedding: []float32{0, 1}, DescriptionEmbedder: "text",
		},
	}
	if len(got) != len(want) {
		t.Fatalf("stored %d scenes, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.UserID != w.UserID || g.SceneID != w.SceneID || !g.Time.Equal(w.Time) || g.ImagePath != w.ImagePath ||
			g.Memorability != w.Memorability || g.Description != w.Description || g.DescriptionEmbedder != w.DescriptionEmbedder ||
			!slices.Equal(g.ImageEmbedding, w.ImageEmbedding) || !slices.Equal(g.DescriptionEmbedding, w.DescriptionEmbedding) ||
			len(g.EmotionProbs) != len(w.EmotionProbs) || g.EmotionProbs["happy"] != w.EmotionProbs["happy"] {
			t.Errorf("scene %d =\n%+v\nwant\n%+v", i, g, w)
		}
	}
	if got, want := emb.embedded(), []string{"Alex waving in a red jacket at the lab", "Alex holding a cup of coffee"}; !slices.Equal(got, want) {
		t.Errorf("embedded %q, want %q", got, want)
	}

	// Indexing again re-embeds nothing: descriptions are unchanged.
	if n, err := ix.Index(ctx, root, "u1"); err != nil || n != 3 {
		t.Fatalf("second Index = %d, %v", n, err)
	}
	if got := len(emb.embedded()); got != 2 {
		t.Errorf("second Index embedded again: %d texts in total, want 2", got)
	}
}

func TestIndexAll(t *testing.T) {
	root := sceneFixture(t)
	st := newMemStore()
	n, err := visual.IndexAll(context.Background(), st, descEmbedder(), root)
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 {
		t.Errorf("indexed %d scenes, want 4 (3 for u1, 1 for u2, none for unknown)", n)
	}
	for user, want := range map[string]int{"u1": 3, "u2": 1, nadine.UnknownUser: 0} {
		got, _ := st.Scenes(context.Background(), user)
		if len(got) != want {
			t.Errorf("%s has %d scenes, want %d", user, len(got), want)
		}
	}
}

func TestIndexEdgeCases(t *testing.T) {
	root := sceneFixture(t)
	ctx := context.Background()
	st := newMemStore()
	for _, id := range []string{"", "..", "../u1", "a/b"} {
		if _, err := visual.Index(ctx, st, nil, root, id); nadine.ErrorCode(err) != nadine.EINVALID {
			t.Errorf("Index(%q): err = %v, want EINVALID", id, err)
		}
	}
	if n, err := visual.Index(ctx, st, nil, root, "nobody"); n != 0 || err != nil {
		t.Errorf("user without folder: %d, %v; want 0, nil", n, err)
	}
	// Without a description embedder scenes have no description vector.
	if n, err := visual.Index(ctx, st, nil, root, "u1"); n != 3 || err != nil {
		t.Fatalf("Index without embedder = %d, %v", n, err)
	}
	got, _ := st.Scenes(ctx, "u1")
	for _, s := range got {
		if s.DescriptionEmbedding != nil || s.DescriptionEmbedder != "" {
			t.Errorf("scene %s has a description vector without an embedder", s.SceneID)
		}
	}
	if _, err := visual.IndexAll(ctx, st, nil, filepath.Join(root, "missing")); nadine.ErrorCode(err) != nadine.ENOTFOUND {
		t.Errorf("IndexAll(missing root): err = %v, want ENOTFOUND", err)
	}
	failing := newMemStore()
	failing.err = errors.New("disk full")
	if _, err := visual.Index(ctx, failing, nil, root, "u1"); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("store failure: err = %v", err)
	}
	emb := descEmbedder()
	emb.err = errors.New("embedder down")
	if _, err := visual.Index(ctx, newMemStore(), emb, root, "u1"); err == nil || !strings.Contains(err.Error(), "embedder down") {
		t.Errorf("embedder failure: err = %v", err)
	}
}

// A bad embedding file leaves the scene without an image vector.
func TestIndexBadEmbedding(t *testing.T) {
	root := t.TempDir()
	base := filepath.Join(root, "u1", "memorable_scenes")
	writeFile(t, filepath.Join(base, "metadata", "scene_20250301_101500_metadata.json"), []byte(`{"timestamp": "2025-03-01T10:15:00Z"}`))
	writeFile(t, filepath.Join(base, "embeddings", "scene_20250301_101500_embedding.npy"), npyFile(1, header("<f4", false, "(2, 2)"), f4(1, 2, 3, 4)))
	st := newMemStore()
	if n, err := visual.Index(context.Background(), st, nil, root, "u1"); n != 1 || err != nil {
		t.Fatalf("Index = %d, %v", n, err)
	}
	got, _ := st.Scenes(context.Background(), "u1")
	if len(got) != 1 || got[0].ImageEmbedding != nil {
		t.Errorf("scenes = %+v, want one without image vector", got)
	}
}
