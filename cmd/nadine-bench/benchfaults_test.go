package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFaultBenchCommand runs nadine bench --faults end to end at (nearly)
// zero latency with a few turns: the offline baseline, the model down,
// down then back, and junk at a rate, through a real `nadine serve` child.
// It checks what the report holds, not its timings.
func TestFaultBenchCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("starts nadine serve children; skipped with -short")
	}
	t.Parallel() // its own children, ports and data directories; it checks no timing
	out, errOut, err := runBenchArgs(t, "--faults", "--json", "--turn-list", "--engines", "graph",
		"--scenarios", "down,back,junk", "--turns", "4", "--outage-turns", "2", "--back-after", "500ms",
		"--ttft", "20ms", "--rate", "0", "--pause", "50ms")
	if err != nil {
		t.Fatalf("bench --faults: %v\n%s", err, errOut)
	}
	var r faultReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("JSON: %v\n%s", err, out)
	}
	runs := map[string]faultRun{}
	for _, x := range r.Runs {
		runs[x.Scenario] = x
		if x.Turns == 0 || x.Answered != x.Turns || len(x.TurnsDetail) != x.Turns || x.Twice != 0 {
			t.Errorf("%s: %d turns, %d answered, %d listed, %d answered twice", x.Scenario, x.Turns, x.Answered, len(x.TurnsDetail), x.Twice)
		}
		for _, turn := range x.TurnsDetail {
			if turn.FirstSpeech <= 0 || turn.Total < turn.FirstSpeech || len(turn.Texts) == 0 {
				t.Errorf("%s: turn %+v lacks its measures", x.Scenario, turn)
			}
		}
	}
	if b := runs[scenarioOffline]; b.Engine != "offline" || b.Fallbacks != 0 {
		t.Errorf("baseline = %+v", b)
	}
	if d := runs[scenarioDown]; d.Engine != "graph" || d.Fallbacks != d.Turns || d.FirstTurn <= 0 {
		t.Errorf("down: %d of %d turns fell back, first turn %v; want every turn answered offline", d.Fallbacks, d.Turns, d.FirstTurn)
	}
	back := runs[scenarioBack]
	if back.Recovery <= 0 {
		t.Errorf("back: recovery %v, want the model used again", back.Recovery)
	}
	last := back.TurnsDetail[len(back.TurnsDetail)-1]
	if back.TurnsDetail[0].Engine != "offline" || last.Engine != "graph" {
		t.Errorf("back: first turn by %s, last by %s; want offline then graph", back.TurnsDetail[0].Engine, last.Engine)
	}
	if j := runs[scenarioJunk]; j.Injected == nil {
		t.Errorf("junk: no fault counts")
	}
	targets := map[string]int{}
	for _, tg := range r.Targets {
		targets[tg.Engine]++
		if tg.Measured == "" {
			t.Errorf("target %q has no figure", tg.Target)
		}
	}
	if targets["graph"] != 5 { // down ×3, back, junk
		t.Errorf("targets = %+v", r.Targets)
	}
	text, _, err := runBenchArgs(t, "--faults", "--engines", "react", "--scenarios", "down",
		"--outage-turns", "2", "--ttft", "0s", "--rate", "0", "--pause", "0s")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"SCENARIO", "JUNK SPOKEN", "offline", "down", "TARGET", "model down"} {
		if !strings.Contains(text, want) {
			t.Errorf("fault bench table lacks %q:\n%s", want, text)
		}
	}
}
