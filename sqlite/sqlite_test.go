package sqlite_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/sqlite"
)

var t0 = time.Date(2026, 11, 30, 14, 3, 12, 0, time.UTC)

func fixedNow() time.Time { return t0 }

func TestOpenCreatesDirectoryAndPersists(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "a", "b", "nadine.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Path(); got != path {
		t.Errorf("Path = %q, want %q", got, path)
	}
	if err := s.SaveProfile(ctx, nadine.Profile{UserID: "alice", UserName: "Alice", LastUpdated: t0}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddMemory(ctx, nadine.Memory{UserID: "alice", Type: nadine.MemoryFact, Text: "likes tea",
		Embedder: "e1", Embedding: []float32{1, 2, 3}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// Reopening applies no migration again and finds the data.
	s, err = sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	p, err := s.Profile(ctx, "alice")
	if err != nil || p.UserName != "Alice" {
		t.Errorf("Profile after reopen = %+v, %v", p, err)
	}
	ms, err := s.Memories(ctx, "alice")
	if err != nil || len(ms) != 1 || !slices.Equal(ms[0].Embedding, []float32{1, 2, 3}) {
		t.Errorf("Memories after reopen = %+v, %v; want the memory with its vector", ms, err)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "nadine.db" && e.Name() != "nadine.db-wal" && e.Name() != "nadine.db-shm" {
			t.Errorf("data directory holds %s, want only the database and its WAL files", e.Name())
		}
	}
}

func TestOpenFileSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nadine.db")
	s, err := sqlite.Open(t.Context(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mode string
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "wal" {
		t.Errorf("journal_mode = %q, want wal", mode)
	}
	var version int
	if err := db.QueryRow(`SELECT version FROM schema_version`).Scan(&version); err != nil {
		t.Fatal(err)
	}
	if version != sqlite.SchemaVersion() {
		t.Errorf("schema version = %d, want %d", version, sqlite.SchemaVersion())
	}
	var check string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check = %q, %v", check, err)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nadine.db")
	s, err := sqlite.Open(t.Context(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE schema_version SET version = 99`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if s, err := sqlite.Open(t.Context(), path, sqlite.Options{}); err == nil {
		s.Close()
		t.Fatal("Open of a database from a newer program succeeded, want an error")
	}
}

func TestOpenBadPath(t *testing.T) {
	for _, path := range []string{"", ":memory:", "file:x.db", "x.db?mode=ro"} {
		s, err := sqlite.Open(t.Context(), path, sqlite.Options{})
		if err == nil {
			s.Close()
		}
		if got := nadine.ErrorCode(err); got != nadine.EINVALID {
			t.Errorf("Open(%q) error code %q (%v), want %q", path, got, err, nadine.EINVALID)
		}
	}
}

func TestConversationRules(t *testing.T) {
	ctx := t.Context()
	s := open(t, sqlite.Options{Now: fixedNow})
	msg := nadine.Message{Role: nadine.RoleUser, Content: "hello"}
	c, err := s.AppendMessage(ctx, "alice", "c1", msg)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Started.Equal(t0) || !c.Updated.Equal(t0) {
		t.Errorf("conversation times = %v, %v; want Now %v", c.Started, c.Updated, t0)
	}
	got, err := s.RecentMessages(ctx, "alice", "c1", 0)
	if err != nil || len(got) != 1 || got[0].Time != t0.Unix() {
		t.Errorf("RecentMessages = %+v, %v; want the message stamped with Now", got, err)
	}

	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"empty conversation id", func() error { _, err := s.AppendMessage(ctx, "alice", "", msg); return err }, nadine.EINVALID},
		{"StoreChunk of unknown conversation", func() error {
			return s.StoreChunk(ctx, "alice", "nope", 0, nadine.Memory{Type: nadine.MemoryConversation})
		}, nadine.ENOTFOUND},
		{"StoreChunk with negative index", func() error {
			return s.StoreChunk(ctx, "alice", "c1", -1, nadine.Memory{Type: nadine.MemoryConversation})
		}, nadine.EINVALID},
		{"StoreChunk of another user's memory", func() error {
			return s.StoreChunk(ctx, "alice", "c1", 0, nadine.Memory{UserID: "bob", Type: nadine.MemoryConversation})
		}, nadine.EINVALID},
		{"StoreChunk of an unknown type", func() error {
			return s.StoreChunk(ctx, "alice", "c1", 0, nadine.Memory{Type: "gossip"})
		}, nadine.EINVALID},
		{"EndConversation of unknown conversation", func() error { return s.EndConversation(ctx, "alice", "nope", nil) }, nadine.ENOTFOUND},
		{"EndConversation", func() error { return s.EndConversation(ctx, "alice", "c1", nil) }, ""},
		{"EndConversation again", func() error {
			return s.EndConversation(ctx, "alice", "c1", &nadine.Memory{Type: nadine.MemoryConversation, Text: "late"})
		}, ""},
		{"AppendMessage to ended conversation", func() error { _, err := s.AppendMessage(ctx, "alice", "c1", msg); return err }, nadine.EINVALID},
		{"StoreChunk of ended conversation", func() error {
			return s.StoreChunk(ctx, "alice", "c1", 0, nadine.Memory{Type: nadine.MemoryConversation})
		}, nadine.EINVALID},
	}
	for _, tt := range tests {
		if got := nadine.ErrorCode(tt.call()); got != tt.want {
			t.Errorf("%s: error code %q, want %q", tt.name, got, tt.want)
		}
	}
	ms, err := s.Memories(ctx, "alice")
	if err != nil || len(ms) != 0 {
		t.Errorf("Memories = %+v, %v; want none (the second EndConversation stores nothing)", ms, err)
	}
	got, err = s.RecentMessages(ctx, "alice", "unknown", 5)
	if err != nil || len(got) != 0 {
		t.Errorf("RecentMessages of unknown conversation = %v, %v; want none, no error", got, err)
	}
	c, err = s.AppendMessage(ctx, "alice", "c2", msg)
	if err != nil || c.Count != 1 {
		t.Errorf("AppendMessage to a new conversation = %+v, %v", c, err)
	}
}

func TestProfileOfNameOnlyUser(t *testing.T) {
	s := open(t, sqlite.Options{})
	if err := s.SetUserName(t.Context(), "bob", "Bob"); err != nil {
		t.Fatal(err)
	}
	_, err := s.Profile(t.Context(), "bob")
	if got := nadine.ErrorCode(err); got != nadine.ENOTFOUND {
		t.Errorf("Profile of a user known only by name: code %q, want %q", got, nadine.ENOTFOUND)
	}
	if got := nadine.ErrorCode(s.SetUserName(t.Context(), "bob", "")); got != nadine.EINVALID {
		t.Errorf("SetUserName with an empty name: code %q, want %q", got, nadine.EINVALID)
	}
	// A profile without a name keeps the recorded name.
	if err := s.SaveProfile(t.Context(), nadine.Profile{UserID: "bob", Location: "Paris"}); err != nil {
		t.Fatal(err)
	}
	users, err := s.Users(t.Context())
	if err != nil || !slices.Equal(users, []nadine.UserRef{{ID: "bob", Name: "Bob"}}) {
		t.Errorf("Users = %v, %v; want bob named Bob", users, err)
	}
}

func TestMemoryDefaults(t *testing.T) {
	ctx := t.Context()
	s := open(t, sqlite.Options{Now: fixedNow})
	id, err := s.AddMemory(ctx, nadine.Memory{UserID: "alice", Type: nadine.MemoryFact, Text: "x",
		Metadata: map[string]string{"date": "kept"}})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := s.Memories(ctx, "alice")
	if err != nil || len(ms) != 1 {
		t.Fatalf("Memories = %+v, %v", ms, err)
	}
	m := ms[0]
	if m.ID != id || !m.Time.Equal(t0) {
		t.Errorf("memory = %+v, want id %d at Now %v", m, id, t0)
	}
	want := map[string]string{"date": "kept", "time": "14:03:12", "timestamp": fmt.Sprint(t0.Unix())}
	for k, v := range want {
		if m.Metadata[k] != v {
			t.Errorf("Metadata[%q] = %q, want %q", k, m.Metadata[k], v)
		}
	}
	if _, ok := m.Metadata["conversation_id"]; ok {
		t.Errorf("Metadata = %v, want no conversation_id for a memory without one", m.Metadata)
	}
	_, err = s.AddMemory(ctx, nadine.Memory{UserID: "alice", Type: "rumour", Text: "x"})
	if got := nadine.ErrorCode(err); got != nadine.EINVALID {
		t.Errorf("AddMemory of an unknown type: code %q, want %q", got, nadine.EINVALID)
	}
	_, err = s.SearchMemories(ctx, "alice", nadine.MemoryQuery{Embedder: "e1", K: 3})
	if got := nadine.ErrorCode(err); got != nadine.EINVALID {
		t.Errorf("SearchMemories without a vector: code %q, want %q", got, nadine.EINVALID)
	}
	res, err := s.SearchMemories(ctx, "alice", nadine.MemoryQuery{Embedding: []float32{1}, Embedder: "e1"})
	if err != nil || len(res) != 0 {
		t.Errorf("SearchMemories with K 0 = %v, %v; want nothing", res, err)
	}
}

func TestInvalidUTF8StoredAsGiven(t *testing.T) {
	ctx := t.Context()
	s := open(t, sqlite.Options{})
	bad := "caf\xe9 \xff"
	if _, err := s.AddMemory(ctx, nadine.Memory{UserID: "u\xff", Type: nadine.MemoryFact, Text: bad}); err != nil {
		t.Fatal(err)
	}
	ms, err := s.Memories(ctx, "u\xff")
	if err != nil || len(ms) != 1 || ms[0].Text != bad {
		t.Errorf("Memories = %+v, %v; want the text byte for byte", ms, err)
	}
}

func TestAddMemoriesBatch(t *testing.T) {
	ctx := t.Context()
	s := open(t, sqlite.Options{})
	var batch []nadine.Memory
	for i := range 10 {
		batch = append(batch, nadine.Memory{UserID: fmt.Sprintf("u%d", i%3), Type: nadine.MemoryFact,
			Text: fmt.Sprint(i), Time: t0.Add(time.Duration(i) * time.Second), Embedder: "e1", Embedding: []float32{1, float32(i)}})
	}
	ids, err := s.AddMemories(ctx, batch)
	if err != nil || len(ids) != 10 {
		t.Fatalf("AddMemories = %v, %v", ids, err)
	}
	ms, err := s.Memories(ctx, "u1")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.Text)
	}
	if want := []string{"7", "4", "1"}; !slices.Equal(got, want) {
		t.Errorf("Memories(u1) = %q, want %q", got, want)
	}
	// One invalid memory rejects the whole batch.
	batch = append(batch, nadine.Memory{Type: nadine.MemoryFact})
	if _, err := s.AddMemories(ctx, batch); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("AddMemories with a memory without user: %v, want EINVALID", err)
	}
	counts, err := s.MemoryEmbedders(ctx)
	if err != nil || counts["e1"] != 10 {
		t.Errorf("MemoryEmbedders = %v, %v; want 10 vectors of e1", counts, err)
	}
}

func TestScenesNewestFirst(t *testing.T) {
	ctx := t.Context()
	s := open(t, sqlite.Options{})
	err := s.UpsertScenes(ctx, []nadine.Scene{
		{UserID: "alice", SceneID: "old", Time: t0},
		{UserID: "alice", SceneID: "new", Time: t0.Add(time.Hour)},
		{UserID: "alice", SceneID: "mid", Time: t0.Add(time.Minute)},
	})
	if err != nil {
		t.Fatal(err)
	}
	scenes, err := s.Scenes(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sc := range scenes {
		got = append(got, sc.SceneID)
	}
	if want := []string{"new", "mid", "old"}; !slices.Equal(got, want) {
		t.Errorf("Scenes = %q, want %q", got, want)
	}
	if err := s.UpsertScenes(ctx, []nadine.Scene{{UserID: "alice"}}); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("UpsertScenes without a scene id: %v, want EINVALID", err)
	}
}

// TestSearchDuringWrites checks that concurrent searches never see a stale
// cached set once a write has returned (run it with -race).
func TestSearchDuringWrites(t *testing.T) {
	ctx := t.Context()
	s := open(t, sqlite.Options{CacheBytes: 600})
	const writes = 40
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for r := range 3 {
		wg.Go(func() {
			user := fmt.Sprintf("u%d", r%2)
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := s.SearchMemories(ctx, user, nadine.MemoryQuery{Embedding: []float32{1, 0}, Embedder: "e1", K: 3}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for i := range writes {
		user := fmt.Sprintf("u%d", i%3)
		if _, err := s.AddMemory(ctx, nadine.Memory{UserID: user, Type: nadine.MemoryFact, Text: fmt.Sprint(i),
			Embedder: "e1", Embedding: []float32{1, float32(i)}}); err != nil {
			t.Fatal(err)
		}
		// A write that returned is visible to the next search.
		res, err := s.SearchMemories(ctx, user, nadine.MemoryQuery{Embedding: []float32{1, float32(i)}, Embedder: "e1", K: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 1 || res[0].Text != fmt.Sprint(i) {
			t.Fatalf("after adding %d, search = %+v, want it", i, res)
		}
	}
	close(stop)
	wg.Wait()
	for u := range 3 {
		user := fmt.Sprintf("u%d", u)
		res, err := s.SearchMemories(ctx, user, nadine.MemoryQuery{Embedding: []float32{1, 0}, Embedder: "e1", K: writes})
		if err != nil {
			t.Fatal(err)
		}
		if want := (writes - u + 2) / 3; len(res) != want {
			t.Errorf("search %s = %d results, want %d", user, len(res), want)
		}
	}
}
