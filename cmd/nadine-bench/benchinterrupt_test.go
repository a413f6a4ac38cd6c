package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBenchInterrupt runs the interruption bench end to end, small, against
// a real `nadine serve`: two visitors who talk over her are heard and she
// stops, the history holds what the stand-in reported said and the marker,
// nothing quiet stops her, and a false interruption resumes once. It checks
// outcomes, not timings.
func TestBenchInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("starts nadine serve and speaks at a voice's pace")
	}
	// Not parallel: under a loaded full run a progress report still in
	// flight when she stops made the history differ from the stand-in's.
	// A brisk voice (250 words a minute) still leaves a reply of 25 words
	// twice the time its three quiet utterances and the interruption take.
	out, errOut, err := runBenchArgs(t, "interrupt", "--json", "--rounds", "3", "--wpm", "250", "--sets", "../../testdata/interruptions")
	if err != nil {
		t.Fatalf("bench interrupt: %v\n%s", err, errOut)
	}
	var r interruptReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("bench JSON: %v\n%s", err, out)
	}
	if r.Interrupted == 0 || r.Stopped != r.Interrupted || len(r.StopLatency) != r.Stopped {
		t.Errorf("real interruptions: %d said, %d stopped %v", r.Interrupted, r.Stopped, r.NotStopped)
	}
	if r.Truthful != r.Stopped {
		t.Errorf("history truthful in %d of %d: %v", r.Truthful, r.Stopped, r.NotTruthful)
	}
	if r.Quiet == 0 || r.QuietStops != 0 {
		t.Errorf("quiet utterances: %d said, %d stopped her: %v", r.Quiet, r.QuietStops, r.QuietWrong)
	}
	if r.False != 1 || r.Resumed != 1 || r.Repeated != 0 {
		t.Errorf("false interruptions: %d, resumed %d, said more than twice %d", r.False, r.Resumed, r.Repeated)
	}
	var b strings.Builder
	if err := printInterruptBench(&b, r); err != nil || !strings.Contains(b.String(), "history truthful") {
		t.Errorf("table (%v):\n%s", err, b.String())
	}
}
