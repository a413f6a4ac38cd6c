package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/modeltest"
	"github.com/nadine-robot/nadine/internal/testrun"
	"github.com/nadine-robot/nadine/modelcache"
)

// TestMain builds the nadine the bench tests measure, as `nadine bench`
// would have it: the production binary. Its children share one model cache,
// so the first trains and the others load.
func TestMain(m *testing.M) {
	flag.Parse()
	testrun.WidenParallel(benchParallel)
	dir, err := os.MkdirTemp("", "nadine-bench-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin := filepath.Join(dir, "nadine")
	build := exec.Command("go", "build", "-o", bin, "github.com/nadine-robot/nadine/cmd/nadine")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build nadine: %v\n%s", err, out)
		os.Exit(1)
	}
	os.Setenv(nadineEnv, bin)
	// After the build, and go keeps its build cache (which XDG_CACHE_HOME moves).
	if err := keepGoCache(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	shared, sharedErr := modeltest.UseSharedCache() // in the user's cache, before it moves
	os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	// The children's cache, keyed by the nadine they run, gets the models
	// the test binaries trained: children started together would each train.
	back := modeltest.Share(shared, sharedErr, func() (*modelcache.Files, error) {
		key, err := modelcache.KeyOf(bin)
		return &modelcache.Files{Dir: filepath.Join(dir, "cache", "nadine", "models"), Key: key}, err
	})
	code := m.Run()
	back()
	os.RemoveAll(dir)
	testrun.Exit(code)
}

// benchParallel is how many parallel tests run at once: they mostly wait on
// their serve children (built without the race detector) at scripted
// latencies.
const benchParallel = 8

// keepGoCache pins GOCACHE to go's build cache, so that moving
// XDG_CACHE_HOME for the models does not give go commands an empty one.
func keepGoCache() error {
	if os.Getenv("GOCACHE") != "" {
		return nil
	}
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		return fmt.Errorf("go env GOCACHE: %w", err)
	}
	return os.Setenv("GOCACHE", strings.TrimSpace(string(out)))
}

// runBenchArgs runs the bench in-process with ARGS (what follows `nadine
// bench`) and returns its standard output and error.
func runBenchArgs(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := runBench(context.Background(), args, env{stdout: &out, stderr: &errOut, getenv: os.Getenv})
	return out.String(), errOut.String(), err
}

func TestBenchUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--fleet", "2x"}, `--fleet: "2x" is not PROCESSESxROBOTS`},
		{[]string{"--fleet", "0x50", "--postgres", "postgres://db/x"}, `--fleet: "0x50" is not PROCESSESxROBOTS`},
		{[]string{"--fleet", "2x50"}, "--fleet needs --postgres"},
		{[]string{"--turns", "0"}, "--turns 0 with --robots or --fleet runs those only"},
	}
	for _, tt := range tests {
		_, _, err := runBenchArgs(t, tt.args...)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("nadine bench %v: %v, want a usage error with %q", tt.args, err, tt.want)
		}
	}
}

// TestBenchCommand runs the bench end to end at (nearly) zero latency:
// each engine's conversation through a real `nadine serve` child process
// (nadine built by TestMain) and a small fleet, and checks the
// structure of what it reports, not its timings.
func TestBenchCommand(t *testing.T) {
	t.Parallel() // its own children, ports and data directory; it checks no timing
	out, errOut, err := runBenchArgs(t, "--json", "--engines", "react,react-raw,graph,graph-seed", "--turns", "5",
		"--ttft", "30ms", "--rate", "0", "--embed-latency", "10ms", "--search-latency", "0s", "--pause", "50ms",
		"--zero-turns", "2", "--robots", "3", "--robot-turns", "4")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, errOut)
	}
	var r benchReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("bench JSON: %v\n%s", err, out)
	}
	if len(r.Engines) != 4 {
		t.Fatalf("%d engines reported, want 4", len(r.Engines))
	}
	for _, e := range r.Engines {
		kinds := map[string]kindStats{}
		for _, k := range e.Kinds {
			kinds[k.Kind] = k
		}
		for _, k := range e.Kinds {
			// The final marker's delay is what the turns' own times say.
			var worst time.Duration
			for _, turn := range e.Turns {
				if turn.Kind == k.Kind {
					worst = max(worst, turn.Total-turn.LastSpeak)
				}
			}
			if k.EndP50 < 0 || k.EndP95 < k.EndP50 || k.EndP95 > worst {
				t.Errorf("%s %s: end after the last sentence p50 %v, p95 %v; the turns' worst %v", e.Engine, k.Kind, k.EndP50, k.EndP95, worst)
			}
		}
		// 5 turns: a greeting, plain turns 1, 2 and 4, a search at 3.
		if kinds[turnGreeting].Turns != 1 || kinds[turnPlain].Turns != 3 || kinds[turnSearch].Turns != 1 {
			t.Errorf("%s: turn kinds %+v", e.Engine, e.Kinds)
		}
		for _, turn := range e.Turns {
			if turn.FirstSpeak <= 0 || turn.LastSpeak < turn.FirstSpeak || turn.Total < turn.LastSpeak || turn.ModelCalls == 0 {
				t.Errorf("%s: turn %+v lacks its measures", e.Engine, turn)
			}
			if turn.Kind == turnSearch && (turn.Filler <= 0 || turn.Filler > turn.FirstSpeak) {
				t.Errorf("%s: the search turn's filler (%v) did not come before the reply (%v)", e.Engine, turn.Filler, turn.FirstSpeak)
			}
			if turn.Kind != turnSearch && turn.Filler != 0 {
				t.Errorf("%s: a %s turn said a filler", e.Engine, turn.Kind)
			}
		}
		if e.RSS <= 0 || e.ZeroTurnP50 <= 0 || e.FrameworkP50 <= 0 || e.Twice != 0 {
			t.Errorf("%s: rss %d, zero-latency turn %v, framework %v, answered twice %d", e.Engine, e.RSS, e.ZeroTurnP50, e.FrameworkP50, e.Twice)
		}
	}
	react, raw, g, seed := r.Engines[0], r.Engines[1], r.Engines[2], r.Engines[3]
	if g.Engine != "graph" || g.Kinds[1].CriticalMax > 2 || g.Kinds[2].CriticalMax > 2 {
		t.Errorf("graph plain and search turns wait on %d and %d model calls in sequence, want at most 2", g.Kinds[1].CriticalMax, g.Kinds[2].CriticalMax)
	}
	if seed.Kinds[1].CriticalPath <= g.Kinds[1].CriticalPath {
		t.Errorf("seed wiring's plain turns wait on %.1f calls in sequence, the parallel wiring's %.1f", seed.Kinds[1].CriticalPath, g.Kinds[1].CriticalPath)
	}
	if raw.Kinds[1].CriticalPath >= react.Kinds[1].CriticalPath {
		t.Errorf("without the contextualizer plain ReAct turns wait on %.1f calls in sequence, with it %.1f", raw.Kinds[1].CriticalPath, react.Kinds[1].CriticalPath)
	}
	if len(r.Fleet) != 2 {
		t.Fatalf("%d fleet runs, want one per engine (graph-seed is skipped)", len(r.Fleet))
	}
	for _, f := range r.Fleet {
		if f.Processes != 1 || f.Robots != 3 || f.Turns != 12 || f.Missing != 0 || f.Twice != 0 || f.Crossed != 0 || f.TurnsPerSec <= 0 {
			t.Errorf("fleet %+v: want 12 turns of 3 robots of one process, none missing, answered twice or crossed", f)
		}
	}
	// The table of this report; TestBenchLatencyRows runs the bench
	// without --json, which prints it.
	var text strings.Builder
	if err := printBench(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"FIRST SPEAK p50", "graph", "greeting", "RSS AFTER THE CONVERSATION"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("bench table lacks %q:\n%s", want, text.String())
		}
	}
}
