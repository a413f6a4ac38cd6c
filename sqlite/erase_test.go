package sqlite_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/sqlite"
)

// fileCount counts the occurrences of secret in the database file and its
// -wal and -shm companions (a missing companion counts 0).
func fileCount(t *testing.T, path, secret string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		b, err := os.ReadFile(path + suffix)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte(secret)); n > 0 {
			out[filepath.Base(path)+suffix] = n
		}
	}
	return out
}

// storePerson puts secret in every place a person's data lives: the name,
// the profile, a conversation's messages, memories (one longer than a page,
// so that it spills into overflow pages), a scene and a checkpoint.
func storePerson(t *testing.T, s *sqlite.Store, id, secret string) {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	steps := []error{
		s.SaveProfile(ctx, nadine.Profile{UserID: id, UserName: "Robin " + secret, Location: "near " + secret,
			Hobbies: []string{"saying " + secret}, LastUpdated: now}),
	}
	for i := range 5 {
		_, err := s.AppendMessage(ctx, id, "conv-1", nadine.Message{Role: nadine.RoleUser, Content: "my PIN is " + secret, Time: now.Unix() + int64(i)})
		steps = append(steps, err)
	}
	_, err := s.AddMemory(ctx, nadine.Memory{UserID: id, Type: nadine.MemoryConversation, Text: "Robin: my PIN is " + secret,
		Time: now, Embedder: "e1", Embedding: []float32{1, 0, 0}})
	steps = append(steps, err)
	_, err = s.AddMemory(ctx, nadine.Memory{UserID: id, Type: nadine.MemoryEpisode,
		Text: strings.Repeat("Observation: Robin said the PIN "+secret+". ", 400), Time: now})
	steps = append(steps, err,
		s.UpsertScenes(ctx, []nadine.Scene{{UserID: id, SceneID: "s1", Time: now, Description: "Robin holding a note with " + secret}}),
		s.SaveCheckpoint(ctx, id+"/graph/state", []byte(`{"messages":["my PIN is `+secret+`"]}`)),
	)
	for _, err := range steps {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestForgetLeavesNothingInTheFiles: after ForgetUser (and DeleteMemories)
// the erased text is in none of the database's files, whether it was still
// in the write-ahead log or already checkpointed into the database file;
// another person's data stays.
func TestForgetLeavesNothingInTheFiles(t *testing.T) {
	const secret, other = "PIN-4242-ZEBRA", "PIN-7777-OTTER"
	for _, tt := range []struct {
		name       string
		checkpoint bool // close and reopen before the erase: the text is in the main file
		erase      func(ctx context.Context, s *sqlite.Store) error
	}{
		{"forget, text in the log", false, func(ctx context.Context, s *sqlite.Store) error { return s.ForgetUser(ctx, "robin") }},
		{"forget, text in the file", true, func(ctx context.Context, s *sqlite.Store) error { return s.ForgetUser(ctx, "robin") }},
		{"delete memories, text in the file", true, func(ctx context.Context, s *sqlite.Store) error {
			// Only memories hold the secret here.
			return s.DeleteMemories(ctx, "robin")
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "nadine.db")
			s, err := sqlite.Open(ctx, path, sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { s.Close() }()
			if strings.HasPrefix(tt.name, "delete memories") {
				for _, m := range []nadine.Memory{
					{UserID: "robin", Type: nadine.MemoryConversation, Text: "Robin: my PIN is " + secret, Embedder: "e1", Embedding: []float32{1, 0}},
					{UserID: "robin", Type: nadine.MemoryEpisode, Text: strings.Repeat("Robin said "+secret+". ", 500)},
				} {
					if _, err := s.AddMemory(ctx, m); err != nil {
						t.Fatal(err)
					}
				}
				if err := s.SaveProfile(ctx, nadine.Profile{UserID: "robin", UserName: "Robin"}); err != nil {
					t.Fatal(err)
				}
			} else {
				storePerson(t, s, "robin", secret)
			}
			storePerson(t, s, "sam", other)
			if tt.checkpoint {
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				if s, err = sqlite.Open(ctx, path, sqlite.Options{}); err != nil {
					t.Fatal(err)
				}
				if n := fileCount(t, path, secret); n["nadine.db"] == 0 {
					t.Fatalf("the secret is not in the database file before the erase (%v): the test proves nothing", n)
				}
			}
			if n := fileCount(t, path, secret); len(n) == 0 {
				t.Fatal("the secret is in no file before the erase: the test proves nothing")
			}
			// A search fills the vector cache and leaves read connections
			// open, as a running robot does.
			if _, err := s.SearchMemories(ctx, "robin", nadine.MemoryQuery{Embedding: []float32{1, 0, 0}, Embedder: "e1", K: 3}); err != nil {
				t.Fatal(err)
			}
			if err := tt.erase(ctx, s); err != nil {
				t.Fatal(err)
			}
			if n := fileCount(t, path, secret); len(n) > 0 {
				t.Errorf("after the erase the secret is still in %v", n)
			}
			if ms, err := s.Memories(ctx, "sam"); err != nil || len(ms) != 2 {
				t.Errorf("sam's memories = %d, %v; want 2", len(ms), err)
			}
			if n := fileCount(t, path, other); len(n) == 0 {
				t.Error("the other person's text is gone too")
			}
		})
	}
}

// TestForgetWhileAnotherProcessReads: `nadine memory forget` runs beside a
// running `nadine serve` on the same file; the erase still truncates the
// log once the other store's reads are done.
func TestForgetWhileAnotherProcessReads(t *testing.T) {
	const secret = "PIN-5150-HERON"
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nadine.db")
	serve, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer serve.Close()
	storePerson(t, serve, "robin", secret)
	cli, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	done := make(chan error, 1)
	go func() {
		// serve keeps reading while the CLI erases.
		for i := 0; i < 50; i++ {
			if _, err := serve.Users(ctx); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	if err := cli.ForgetUser(ctx, "robin"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := fileCount(t, path, secret); len(n) > 0 {
		t.Errorf("after the erase the secret is still in %v", n)
	}
	if _, err := serve.Profile(ctx, "robin"); nadine.ErrorCode(err) != nadine.ENOTFOUND {
		t.Errorf("the other process still reads the profile: %v", err)
	}
}
