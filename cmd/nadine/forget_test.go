package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/sqlite"
)

// TestMemoryForgetEveryIdentity is the issue's report: `nadine memory
// forget` could not find people stored by plain name (a plain name on
// nadine/user/name is their id, with no row in the names map), so their
// messages and memories stayed. Every form of identity now resolves, and
// the scene folder goes with the rest.
func TestMemoryForgetEveryIdentity(t *testing.T) {
	data := t.TempDir()
	vars := map[string]string{"HOME": t.TempDir(), "NADINE_DATA_DIR": data}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(data, "nadine.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	for i := range 44 {
		if _, err := st.AppendMessage(ctx, "Alex", "c1", nadine.Message{Role: nadine.RoleUser, Content: "Alex's message", Time: now.Unix() + int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 15 {
		if _, err := st.AddMemory(ctx, nadine.Memory{UserID: "Alex", Type: nadine.MemoryConversation, Text: "Alex: hello", Time: now.Add(time.Duration(i) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SetUserName(ctx, "face-17", "Kim"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddMemory(ctx, nadine.Memory{UserID: "face-17", Type: nadine.MemoryEpisode, Text: "Kim is a pilot", Time: now}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	scene := filepath.Join(data, "scenes", "Alex", "memorable_scenes", "metadata", "scene_1_metadata.json")
	if err := os.MkdirAll(filepath.Dir(scene), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(scene, []byte(`{"description": "Alex in a red jacket"}`), 0o600); err != nil {
		t.Fatal(err)
	}

	run := func(args ...string) (string, error) {
		out, errOut, err := runNadine(t, vars, "", args...)
		if err != nil {
			return out, &cmdError{err, errOut}
		}
		return out, nil
	}
	out, err := run("memory", "users")
	if err != nil || !strings.Contains(out, "Alex") || !strings.Contains(out, "face-17") {
		t.Fatalf("memory users: %v\n%s", err, out)
	}
	if out, err := run("memory", "show", "alex"); err != nil || !strings.Contains(out, "Alex (Alex)") || !strings.Contains(out, "Alex: hello") {
		t.Errorf("memory show alex: %v\n%s", err, out)
	}
	if out, err := run("memory", "forget", "alex"); err != nil || !strings.Contains(out, "forgot Alex") {
		t.Errorf("memory forget alex: %v\n%s", err, out)
	}
	if out, err := run("memory", "forget", "Kim"); err != nil || !strings.Contains(out, "forgot face-17") {
		t.Errorf("memory forget Kim: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(data, "scenes", "Alex")); !os.IsNotExist(err) {
		t.Errorf("Alex's scene folder survived the forget: %v", err)
	}
	st, err = sqlite.Open(ctx, filepath.Join(data, "nadine.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if ids, err := st.UserIDs(ctx); err != nil || len(ids) != 0 {
		t.Errorf("ids left after forgetting everyone: %q, %v", ids, err)
	}
	if _, err := run("memory", "forget", "alex"); err == nil || !strings.Contains(err.Error(), "no user") {
		t.Errorf("forget twice: %v", err)
	}
}

// cmdError is a command's error with what it wrote to stderr.
type cmdError struct {
	err    error
	stderr string
}

func (e *cmdError) Error() string { return e.err.Error() + "\n" + e.stderr }
