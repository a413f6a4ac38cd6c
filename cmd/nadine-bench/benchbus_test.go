package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBenchBus runs the bus bench end to end, small, through real
// `nadine serve` children: the live transcript after a burst is answered
// and none of the burst is lost or answered twice; transcripts that expire
// while a turn runs are marked so; the turns with a stalled subscriber are
// answered; oversized messages are refused, and the child's memory stays
// far below their size. It checks outcomes, not timings.
func TestBenchBus(t *testing.T) {
	if testing.Short() {
		t.Skip("starts four nadine serve processes")
	}
	t.Parallel() // its own children, ports and data directory; it waits on them more than it computes
	out, errOut, err := runBenchArgs(t, "bus", "--json", "--engine", "graph",
		"--burst", "300", "--stalled-turns", "1", "--oversized-mb", "40")
	if err != nil {
		t.Fatalf("bench bus: %v\n%s", err, errOut)
	}
	var r busReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("bench JSON: %v\n%s", err, out)
	}
	if l := r.Live; l == nil || l.LiveState != "answered" || l.LiveFirst <= 0 || l.Lost != 0 || l.Twice != 0 || l.NotKept != 0 ||
		l.Answered+l.Expired+l.Dropped != l.Transcripts-l.PublishFails || l.ExpiryMarked != l.ExpiryChecked || l.ExpiryChecked == 0 {
		t.Errorf("burst then live: %+v", l)
	}
	if len(r.Stalled) != 2 {
		t.Fatalf("%d stalled runs, want 2", len(r.Stalled))
	}
	for _, s := range r.Stalled {
		if len(s.Baseline) != 1 || s.StalledFinals != 1 || s.Ratio <= 0 {
			t.Errorf("stalled: %+v", s)
		}
	}
	if r.Stalled[0].Disconnected < 1 {
		t.Errorf("with the default write timeout, the stalled subscriber was not disconnected: %+v", r.Stalled[0])
	}
	o := r.Oversized
	if o == nil || len(o.Messages) != 4 || o.AfterFirst <= 0 || o.Logged != 4 {
		t.Fatalf("oversized: %+v", o)
	}
	for i, m := range o.Messages {
		if !m.Refused || m.Sent >= o.Size {
			t.Errorf("oversized message %d: %+v", i, m)
		}
	}
	// A message held whole would add its size at least; the rest is the
	// collector's slack under load (21 MB once, with 40 MB messages).
	if o.PeakRSS > o.RSSBefore+o.Size*3/4 {
		t.Errorf("peak RSS %d MB from %d MB, with %d MB messages", o.PeakRSS>>20, o.RSSBefore>>20, o.Size>>20)
	}
	if text := busText(t, r); !strings.Contains(text, "stalled subscriber") || !strings.Contains(text, "oversized") {
		t.Errorf("tables:\n%s", text)
	}
}

func busText(t *testing.T, r busReport) string {
	t.Helper()
	var b strings.Builder
	if err := printBusBench(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
