package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/sqlite"
)

// TestBenchLatencyRows runs the bench's extra runs end to end at (nearly)
// zero latency through real `nadine serve` children: interim transcripts
// ahead of the finals are answered by their early turns, and a person
// with stored memories is measured (20: the seeding's batches of 1000 are
// TestBenchSeededMemories', which seeds 1500). It checks the structure of
// the report, not its timings; the tables are printed from the same
// report, and one bench without --json (--turns 0) prints its own.
func TestBenchLatencyRows(t *testing.T) {
	t.Parallel() // its own children, ports and data directory; it checks no timing
	out, errOut, err := runBenchArgs(t, "--json", "--engines", "graph,react", "--turns", "3",
		"--ttft", "30ms", "--rate", "0", "--embed-latency", "10ms", "--search-latency", "0s", "--pause", "50ms",
		"--zero-turns", "0", "--interim", "300ms", "--interim-stable", "--memories", "20", "--memory-turns", "3")
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, errOut)
	}
	var r benchReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("bench JSON: %v\n%s", err, out)
	}
	if len(r.Engines) != 2 || len(r.Interim) != 2 || len(r.Memories) != 2 {
		t.Fatalf("%d engines, %d interim runs, %d memories runs; want 2 of each", len(r.Engines), len(r.Interim), len(r.Memories))
	}
	for _, e := range r.Interim {
		n := 0
		for _, k := range e.Kinds {
			n += k.Turns
			if k.FirstP50 <= 0 || k.LastP50 < k.FirstP50 {
				t.Errorf("%s interim: %s turns lack their times: %+v", e.Engine, k.Kind, k)
			}
		}
		// The stable interim has the final's words: when its early turn
		// started (nothing ran), the final adopted it.
		if n != 3 || e.Turns != 3 || !e.Stable || e.Lead <= 0 || e.Adopted < 1 || e.Adopted+e.Discarded > e.Turns {
			t.Errorf("%s interim: %+v; want 3 turns, at least one answered by its early turn", e.Engine, e)
		}
	}
	for _, m := range r.Memories {
		if m.Memories != 20 || m.Turns != 3 || m.Seeded <= 0 || m.ZeroTurnP50 <= 0 || m.FirstTurn <= 0 || m.RSS <= 0 {
			t.Errorf("memories run %+v lacks its measures", m)
		}
	}
	// The tables of this report (a second bench without --json would start
	// three more children to print the same sections).
	var table strings.Builder
	if err := printBench(&table, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"FIRST SPEAK p50", "graph", "greeting", "RSS AFTER THE CONVERSATION",
		"with interim transcripts ahead", "EARLY TURN ADOPTED", "one person with many memories", "MEMORIES"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("bench table lacks %q:\n%s", want, table.String())
		}
	}
	// --turns 0 with --memories, without --json: the memories run only, as a
	// table.
	text, _, err := runBenchArgs(t, "--engines", "graph", "--turns", "0", "--interim", "100ms",
		"--memories", "10", "--memory-turns", "2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "one person with many memories") || strings.Contains(text, "FIRST SPEAK") || strings.Contains(text, "interim transcripts ahead") {
		t.Errorf("bench --turns 0 --memories 10 printed more or less than the memories run:\n%s", text)
	}
	for _, args := range [][]string{{"--interim", "-1s"}, {"--memories", "-5"}, {"--memory-turns", "0"}} {
		_, _, err := runBenchArgs(t, args...)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), "--interim and --memories") {
			t.Errorf("bench %v: err = %v, want a usage error", args, err)
		}
	}
}

// TestBenchSeededMemories: the seeded memories are the bench user's, in
// the vector space of the embedder serve builds from the bench's
// configuration, with the scripted server's vectors, so a turn's search
// finds them.
func TestBenchSeededMemories(t *testing.T) {
	t.Parallel() // its own children, ports and data directory; it checks no timing
	ctx := context.Background()
	dir := t.TempDir()
	body, err := benchConfig(benchSetup{modelURL: "http://127.0.0.1:1/v1", serperURL: "http://127.0.0.1:2", dir: dir, engine: "graph"}, "127.0.0.1:0", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "nadine.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := seedMemories(ctx, st, 1500); err != nil {
		t.Fatal(err)
	}
	all, err := st.Memories(ctx, benchUserID)
	if err != nil || len(all) != 1500 {
		t.Fatalf("%d memories (%v), want 1500", len(all), err)
	}
	for _, typ := range []nadine.MemoryType{nadine.MemoryConversation, nadine.MemoryEpisode} {
		if ok, err := st.HasMemories(ctx, benchUserID, typ); !ok || err != nil {
			t.Errorf("no %s memory (%v)", typ, err)
		}
	}
	name, err := benchEmbedderName()
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	// nadine re-embeds what another embedder made: on the bench's
	// configuration it finds nothing to re-embed (the model server it
	// names does not listen) and names its own embedder.
	cfg := filepath.Join(dir, "bench.yaml")
	if err := os.WriteFile(cfg, body, 0o600); err != nil {
		t.Fatal(err)
	}
	exe, err := nadineBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "memory", "reembed", "--config", cfg)
	cmd.Env = []string{"HOME=" + dir, benchKeyEnv + "=bench"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if want := "re-embedded 0 memories with " + name + "\n"; err != nil || string(out) != want {
		t.Fatalf("nadine memory reembed: %v\n%s%s\nwant %q: the seeded memories are in serve's vector space", err, out, stderr.String(), want)
	}
	if st, err = sqlite.Open(ctx, filepath.Join(dir, "nadine.db"), sqlite.Options{}); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	q := "Robin felt happy after a concert at the Victoria Hall on day 3, memory 153."
	res, err := st.SearchMemories(ctx, benchUserID, nadine.MemoryQuery{Embedding: llmtest.Vector(q, benchDimensions), Embedder: name, K: 1})
	if err != nil || len(res) != 1 || res[0].Text != q {
		t.Errorf("search for one memory's text: %+v (%v)", res, err)
	}
}
