package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/sqlite"
)

func openInboxes(t *testing.T, path string) *sqlite.Inboxes {
	t.Helper()
	in, err := sqlite.OpenInboxes(context.Background(), path, sqlite.InboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestInboxAcrossRestart: what Add returned survives a close and reopen,
// in arrival order, with its state; a redelivered id is not kept twice; a
// finished transcript's text is erased; robots do not see each other's
// transcripts.
func TestInboxAcrossRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "inbox.db")
	in := openInboxes(t, path)
	a, b := in.Inbox("robot-a"), in.Inbox("robot-b")
	spoken := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	got, err := a.Add(ctx, []nadine.Transcript{
		{ID: "s-1", Text: "Hello", Language: nadine.English, Spoken: spoken},
		{Text: "secret words without id"},
		{ID: "s-3", Text: "Bonjour", Language: nadine.French},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Seq == 0 || got[1].Seq <= got[0].Seq || got[2].Seq <= got[1].Seq {
		t.Fatalf("seqs = %+v, want increasing", got)
	}
	again, err := a.Add(ctx, []nadine.Transcript{{ID: "s-1", Text: "Hello"}, {ID: "s-4", Text: "Four"}})
	if err != nil {
		t.Fatal(err)
	}
	if again[0].Seq != 0 || again[1].Seq == 0 {
		t.Fatalf("redelivery = %+v, want seq 0 for s-1 and a new seq for s-4", again)
	}
	if _, err := b.Add(ctx, []nadine.Transcript{{ID: "s-1", Text: "other robot"}}); err != nil {
		t.Fatal(err)
	}
	if err := a.Mark(ctx, nadine.InboxTaken, got[0].Seq); err != nil {
		t.Fatal(err)
	}
	if err := a.Mark(ctx, nadine.InboxAnswered, got[1].Seq); err != nil {
		t.Fatal(err)
	}
	if err := a.Mark(ctx, nadine.InboxPending, got[1].Seq); err != nil { // never back
		t.Fatal(err)
	}
	if err := a.Mark(ctx, "lost"); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("Mark(unknown state) = %v, want EINVALID", err)
	}
	if err := in.Close(); err != nil {
		t.Fatal(err)
	}

	in = openInboxes(t, path)
	defer in.Close()
	pending, err := in.Inbox("robot-a").Pending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range pending {
		ids = append(ids, e.ID+":"+string(e.State))
	}
	if got, want := strings.Join(ids, " "), "s-1:taken s-3:pending s-4:pending"; got != want {
		t.Fatalf("pending after restart = %q, want %q", got, want)
	}
	if !pending[0].Spoken.Equal(spoken) || pending[0].Language != nadine.English || pending[0].Received.IsZero() {
		t.Errorf("entry = %+v, want its times and language kept", pending[0])
	}
	states, err := in.States(ctx, "robot-a")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(states), "map[s-1:taken s-3:pending s-4:pending]"; got != want {
		t.Errorf("States = %s, want %s", got, want)
	}
	other, _ := in.Inbox("robot-b").Pending(ctx)
	if len(other) != 1 || other[0].Text != "other robot" {
		t.Errorf("robot-b pending = %+v", other)
	}
	if err := in.Close(); err != nil {
		t.Fatal(err)
	}
	if err := sqlite.IntegrityCheck(ctx, path); err != nil {
		t.Error(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "secret words") {
		t.Error("the text of an answered transcript is still in the file")
	}
}

// TestInboxRecords: the records read from the file say each transcript's
// state and when it came to it.
func TestInboxRecords(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "inbox.db")
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	in, err := sqlite.OpenInboxes(ctx, path, sqlite.InboxOptions{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	b := in.Inbox("lobby")
	kept, err := b.Add(ctx, []nadine.Transcript{{ID: "a", Text: "Hello", Received: now}, {ID: "b", Text: "Hi", Received: now}})
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(3 * time.Second)
	if err := b.Mark(ctx, nadine.InboxExpired, kept[1].Seq); err != nil {
		t.Fatal(err)
	}
	recs, err := sqlite.InboxRecords(ctx, path, "lobby")
	if err != nil {
		t.Fatal(err)
	}
	if a, bb := recs["a"], recs["b"]; a.State != nadine.InboxPending || bb.State != nadine.InboxExpired || !bb.Updated.Equal(now) || len(recs) != 2 {
		t.Errorf("records: %+v", recs)
	}
}
