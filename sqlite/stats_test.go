package sqlite_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/sqlite"
	"github.com/nadine-robot/nadine/turnstats"
)

// TestStatsKeepsRecords writes turn and interaction records, closes the
// file (which writes what waits) and reads them back from another handle
// (nadine report's), within a period and only within it; records older
// than Retain are gone at the next open.
func TestStatsKeepsRecords(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "stats.db")
	now := time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)
	st, err := sqlite.OpenStats(ctx, path, sqlite.StatsOptions{Now: func() time.Time { return now }, Retain: 48 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	old := turnstats.Turn{Time: now.Add(-72 * time.Hour), Robot: "lobby", Outcome: turnstats.Answered, Language: "en"}
	st.RecordTurn(old)
	for i := range 300 { // more than one batch
		st.RecordTurn(turnstats.Turn{Time: now.Add(-time.Duration(i) * time.Minute), Robot: "lobby", Engine: "graph",
			Outcome: turnstats.Outcomes()[i%6], Language: "fr", FirstSpeech: time.Duration(i) * time.Millisecond,
			Duration: time.Second, ModelCalls: 2, ModelErrors: i % 2, Filler: i%3 == 0})
	}
	st.RecordSession(turnstats.Session{End: now, Robot: "lobby", Reason: "left", Turns: 4, Duration: 3 * time.Minute})
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if st.Lost() != 0 {
		t.Errorf("%d records lost", st.Lost())
	}
	r, err := sqlite.ReadStats(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	turns, err := r.Turns(ctx, now.Add(-time.Hour), now.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 61 {
		t.Errorf("%d turns in the last hour, want 61", len(turns))
	}
	got := turns[len(turns)-1]
	if got.Robot != "lobby" || got.Engine != "graph" || got.Outcome != turnstats.Answered || got.Language != "fr" ||
		got.Duration != time.Second || got.ModelCalls != 2 || !got.Filler || !got.Time.Equal(now) {
		t.Errorf("read back %+v", got)
	}
	sum, err := r.Summary(ctx, now.Add(-24*time.Hour), now.Add(time.Hour), now, "")
	if err != nil {
		t.Fatal(err)
	}
	if sum.Turns != 300 || sum.Visitors != 1 {
		t.Errorf("summary: %d turns, %d visitors; want 300, 1", sum.Turns, sum.Visitors)
	}
	r.Close()

	// The next start prunes what is older than Retain.
	st, err = sqlite.OpenStats(ctx, path, sqlite.StatsOptions{Now: func() time.Time { return now }, Retain: 48 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if all, _ := st.Turns(ctx, now.Add(-100*time.Hour), now.Add(time.Hour)); len(all) != 300 {
		t.Errorf("%d turns after pruning, want 300 (the one of 3 days ago gone)", len(all))
	}
	if _, err := sqlite.ReadStats(ctx, filepath.Join(t.TempDir(), "none.db")); err == nil {
		t.Error("reading a missing stats file: no error")
	}
}

// TestOnErrorCountsStoreFailures: a store whose database fails tells
// Options.OnError, once per failed operation, and a missing row is no
// failure.
func TestOnErrorCountsStoreFailures(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var ops []string
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "nadine.db"), sqlite.Options{OnError: func(op string, err error) {
		mu.Lock()
		ops = append(ops, op)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Profile(ctx, "nobody"); err == nil {
		t.Fatal("profile of nobody: no error")
	}
	if _, err := st.Users(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(ops) != 0 {
		t.Errorf("failures told for a missing profile: %v", ops)
	}
	mu.Unlock()
	st.Close()
	if _, err := st.Users(ctx); err == nil {
		t.Fatal("users of a closed store: no error")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(ops) != 1 || ops[0] != "users" {
		t.Errorf("failures told: %v, want [users]", ops)
	}
}
