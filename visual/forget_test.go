package visual_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/nadine-robot/nadine/visual"
)

// TestSceneFoldersEraseUser: a forgotten person's scene folder is gone, so
// indexing the folders again (at the next start) brings nothing back; the
// other folders stay, and ids that cannot name a folder remove nothing.
func TestSceneFoldersEraseUser(t *testing.T) {
	root := sceneFixture(t)
	ctx := context.Background()
	f := visual.SceneFolders{Root: root}
	for _, id := range []string{"u1", "nobody", "..", "../u2", "u2/memorable_scenes", ""} {
		if err := f.EraseUser(ctx, id); err != nil {
			t.Errorf("EraseUser(%q): %v", id, err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "u1")); !os.IsNotExist(err) {
		t.Errorf("u1's folder is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "u2", "memorable_scenes", "metadata")); err != nil {
		t.Errorf("u2's folder is gone: %v", err)
	}
	st := newMemStore()
	if _, err := visual.IndexAll(ctx, st, descEmbedder(), root); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.Scenes(ctx, "u1"); len(got) != 0 {
		t.Errorf("u1 has %d scenes after re-indexing, want 0", len(got))
	}
	if got, _ := st.Scenes(ctx, "u2"); len(got) != 1 {
		t.Errorf("u2 has %d scenes after re-indexing, want 1", len(got))
	}
	if err := (visual.SceneFolders{}).EraseUser(ctx, "u2"); err != nil {
		t.Errorf("no root: %v", err)
	}
}
