package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/nadine-robot/nadine/internal/llmtest"
)

// The fault bench's scenarios.
const (
	scenarioOffline = "offline" // the offline engine alone: its own time, the baseline
	scenarioDown    = "down"    // the model server is down for the whole conversation
	scenarioDown500 = "down500" // a proxy answers HTTP 500 for the dead server behind it
	scenarioBack    = "back"    // down at first, back after --back-after
	scenarioHang    = "hang"    // every model request hangs
	scenarioHTTP500 = "http500" // 30% of model requests answer HTTP 500
	scenarioJunk    = "junk"    // 30% of chat answers are junk
	scenarioHangs   = "hangs"   // 10% of model requests hang
)

var faultScenarios = []string{scenarioDown, scenarioDown500, scenarioBack, scenarioHang, scenarioHTTP500, scenarioJunk, scenarioHangs}

// faultTurn is one turn of a fault run, as the robot and the trace saw it.
type faultTurn struct {
	FirstSpeech time.Duration `json:"first_speech_ns"`          // transcript to the first speak message, filler included
	FirstReply  time.Duration `json:"first_reply_ns,omitempty"` // to the reply's first sentence
	Total       time.Duration `json:"total_ns"`                 // to the final speak message
	Answered    bool          `json:"answered"`                 // a reply sentence was said
	Fallback    bool          `json:"fallback"`                 // another engine than the configured one answered
	Junk        bool          `json:"junk"`                     // junk was spoken
	Filler      bool          `json:"filler"`
	Engine      string        `json:"engine"`
	Sent        time.Time     `json:"sent"`
	Texts       []string      `json:"texts,omitempty"` // what was said
}

// durStats summarizes durations.
type durStats struct {
	P50 time.Duration `json:"p50_ns"`
	P95 time.Duration `json:"p95_ns"`
	Max time.Duration `json:"max_ns"`
}

func statsOf(d []time.Duration) durStats {
	if len(d) == 0 {
		return durStats{}
	}
	return durStats{P50: percentile(d, 50), P95: percentile(d, 95), Max: slices.Max(d)}
}

// faultRun is one scenario with one engine.
type faultRun struct {
	Scenario    string         `json:"scenario"`
	Engine      string         `json:"engine"`
	Faults      string         `json:"faults"`
	Turns       int            `json:"turns"`
	Answered    int            `json:"answered"`
	Fallbacks   int            `json:"fallback_replies"`
	Junk        int            `json:"junk_spoken"`
	Fillers     int            `json:"fillers"`
	FirstSpeech durStats       `json:"first_speech"`
	FirstTurn   time.Duration  `json:"first_turn_first_speech_ns"`
	Later       durStats       `json:"later_turns_first_speech"`
	ThirdOn     durStats       `json:"third_on_first_speech"` // the third and later turns
	Whole       durStats       `json:"whole_turn"`
	Recovery    time.Duration  `json:"recovery_ns,omitempty"` // back: from the model's return to its first answered turn's first speech; -1: never
	Injected    map[string]int `json:"injected,omitempty"`
	Twice       int            `json:"answered_twice"`
	TurnsDetail []faultTurn    `json:"turn_list,omitempty"`
}

// faultReport is what nadine bench --faults prints.
type faultReport struct {
	Machine  map[string]string `json:"machine"`
	Settings faultSettings     `json:"settings"`
	Runs     []faultRun        `json:"runs"`
	Targets  []faultTarget     `json:"targets"`
}

type faultSettings struct {
	TTFT        time.Duration `json:"ttft_ns"`
	TokenRate   float64       `json:"tokens_per_second"`
	Pause       time.Duration `json:"pause_ns"`
	RateTurns   int           `json:"rate_turns"`
	OutageTurns int           `json:"outage_turns"`
	BackAfter   time.Duration `json:"back_after_ns"`
	Seed        uint64        `json:"seed"`
}

// faultTarget is one target of docs/failures.md, with the figure measured.
type faultTarget struct {
	Engine   string `json:"engine"`
	Target   string `json:"target"`
	Measured string `json:"measured"`
	Met      bool   `json:"met"`
}

// isFaultsFlag reports whether a bench argument asks for the fault bench.
func isFaultsFlag(a string) bool {
	switch a {
	case "--faults", "-faults", "--faults=true", "-faults=true":
		return true
	}
	return false
}

// runFaultBench holds the bench conversation while the models fail (down,
// back, hanging, 500s, junk) and checks what a visitor hears (docs/failures.md).
func runFaultBench(ctx context.Context, args []string, e env) error {
	fs := flags("bench --faults", e)
	engines := fs.String("engines", "react,graph", "engines to measure: react, graph")
	scenarios := fs.String("scenarios", strings.Join(faultScenarios, ","), "scenarios: down, down500, back, hang, http500, junk, hangs")
	rateTurns := fs.Int("turns", 200, "turns of the http500, junk and hangs scenarios")
	outageTurns := fs.Int("outage-turns", 12, "turns of the down, down500 and hang scenarios (and of the offline baseline)")
	backAfter := fs.Duration("back-after", 10*time.Second, "back: the model server comes back this long after the first transcript")
	ttft := fs.Duration("ttft", 300*time.Millisecond, "time to first token of every model call")
	rate := fs.Float64("rate", 50, "tokens per second every model generates")
	pause := fs.Duration("pause", time.Second, "time between the end of a reply and the next transcript")
	seed := fs.Uint64("seed", 12, "seed of the fault draws")
	asJSON := fs.Bool("json", false, "print JSON instead of tables")
	detail := fs.Bool("turn-list", false, "with --json, include every turn")
	if err := fs.Parse(args); err != nil {
		return err
	}
	names, err := parseEngines(*engines)
	if err != nil {
		return err
	}
	for _, n := range names {
		if n != "react" && n != "graph" {
			return usageError{fmt.Sprintf("--engines: the fault bench runs react and graph, not %q", n)}
		}
	}
	var scen []string
	for _, s := range strings.Split(*scenarios, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if !slices.Contains(faultScenarios, s) {
			return usageError{fmt.Sprintf("--scenarios: unknown scenario %q (known: %s)", s, strings.Join(faultScenarios, ", "))}
		}
		scen = append(scen, s)
	}
	if *rateTurns < 1 || *outageTurns < 2 || *backAfter <= 0 {
		return usageError{"--turns must be at least 1, --outage-turns at least 2, --back-after positive"}
	}
	set := faultSettings{TTFT: *ttft, TokenRate: *rate, Pause: *pause, RateTurns: *rateTurns, OutageTurns: *outageTurns, BackAfter: *backAfter, Seed: *seed}
	dir, err := os.MkdirTemp("", "nadine-faults-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	progress := progressTo(e.stderr, *asJSON)
	report := faultReport{Machine: machine(), Settings: set}
	progress("bench --faults: offline engine, %d turns (the baseline)…", *outageTurns)
	base, err := runFaultScenario(ctx, set, scenarioOffline, "offline", filepath.Join(dir, "offline"))
	if err != nil {
		return fmt.Errorf("bench --faults offline: %w", err)
	}
	report.Runs = append(report.Runs, base)
	for _, name := range names {
		for _, sc := range scen {
			progress("bench --faults: %s, engine %s…", sc, name)
			r, err := runFaultScenario(ctx, set, sc, name, filepath.Join(dir, sc+"-"+name))
			if err != nil {
				return fmt.Errorf("bench --faults %s %s: %w", sc, name, err)
			}
			report.Runs = append(report.Runs, r)
		}
	}
	report.Targets = faultTargets(report.Runs, base)
	if !*detail {
		for i := range report.Runs {
			report.Runs[i].TurnsDetail = nil
		}
	}
	if *asJSON {
		return json.NewEncoder(e.stdout).Encode(report)
	}
	return printFaults(e.stdout, report)
}

// scenarioPlan is the fault plan and the description of a scenario.
func scenarioPlan(sc string, seed uint64) (llmtest.FaultPlan, string) {
	switch sc {
	case scenarioHang:
		return llmtest.FaultPlan{Seed: seed, Hang: 1, Embeddings: true}, "every model request hangs"
	case scenarioDown500:
		return llmtest.FaultPlan{Seed: seed, Error500: 1, Embeddings: true}, "every model request answers HTTP 500"
	case scenarioHTTP500:
		return llmtest.FaultPlan{Seed: seed, Error500: 0.3, Embeddings: true}, "30% of model requests: HTTP 500"
	case scenarioJunk:
		return llmtest.FaultPlan{Seed: seed, Junk: 0.3}, "30% of chat answers: junk"
	case scenarioHangs:
		return llmtest.FaultPlan{Seed: seed, Hang: 0.1, Embeddings: true}, "10% of model requests hang"
	case scenarioDown:
		return llmtest.FaultPlan{}, "the model server refuses connections"
	case scenarioBack:
		return llmtest.FaultPlan{}, "the model server is down, then comes back"
	}
	return llmtest.FaultPlan{}, "no model"
}

// runFaultScenario runs one scenario's conversation with one engine.
func runFaultScenario(ctx context.Context, set faultSettings, sc, engine, dir string) (faultRun, error) {
	plan, what := scenarioPlan(sc, set.Seed)
	run := faultRun{Scenario: sc, Engine: engine, Faults: what, Recovery: -1}
	srv, serper := startBenchServers(benchSettings{TTFT: set.TTFT, TokenRate: set.TokenRate, EmbedLatency: 100 * time.Millisecond, ToolLatency: 300 * time.Millisecond})
	defer srv.Close()
	defer serper.Close()
	child, err := startServed(ctx, benchSetup{modelURL: srv.URL(), serperURL: serper.URL, dir: dir, engine: engine, retries: true})
	if err != nil {
		return run, err
	}
	// The faults start with the conversation: the child built its
	// knowledge base on a healthy server, and then the server goes down
	// (its connections closed) or starts failing.
	if sc == scenarioDown || sc == scenarioBack {
		srv.Down()
	}
	srv.InjectFaults(plan)
	n := set.OutageTurns
	switch sc {
	case scenarioHTTP500, scenarioJunk, scenarioHangs:
		n = set.RateTurns
	case scenarioBack:
		n = 1 << 20 // until the model answered again
	}
	var (
		upMu sync.Mutex
		upAt time.Time
		upEr error
	)
	after := 0 // turns the model answered since it came back
	for i := 0; i < n; i++ {
		text, _ := benchTurn(i)
		if i == 0 && sc == scenarioBack {
			up := time.AfterFunc(set.BackAfter, func() {
				upMu.Lock()
				defer upMu.Unlock()
				upEr = srv.Up()
				upAt = time.Now()
			})
			defer up.Stop()
		}
		id := fmt.Sprintf("faults-%s-%s-%d", sc, engine, i)
		got, tr, err := child.turn(ctx, id, text)
		if err != nil {
			return run, child.fail(fmt.Errorf("turn %d (%q): %w", i, text, err))
		}
		t := faultTurn{Total: got.finalAt.Sub(got.sent), Answered: got.sentences > 0, Engine: tr.Engine, Sent: got.sent,
			Fallback: tr.Engine != engine, Filler: !got.filler.IsZero(), Texts: got.texts}
		first := got.first
		if !got.filler.IsZero() && (first.IsZero() || got.filler.Before(first)) {
			first = got.filler
		}
		if !first.IsZero() {
			t.FirstSpeech = first.Sub(got.sent)
		}
		if !got.first.IsZero() {
			t.FirstReply = got.first.Sub(got.sent)
		}
		for _, s := range got.texts {
			t.Junk = t.Junk || llmtest.SpokenJunk(s, nil)
		}
		run.TurnsDetail = append(run.TurnsDetail, t)
		if sc == scenarioBack {
			upMu.Lock()
			up, uerr := upAt, upEr
			upMu.Unlock()
			if uerr != nil {
				return run, child.fail(uerr)
			}
			if !up.IsZero() && !t.Fallback && got.sent.After(up) {
				if after == 0 && !got.first.IsZero() {
					run.Recovery = got.first.Sub(up)
				}
				if after++; after == 3 {
					break
				}
			}
			if !up.IsZero() && time.Since(up) > 2*time.Minute {
				break // never came back: Recovery stays -1
			}
		}
		time.Sleep(set.Pause)
	}
	run.Injected = srv.FaultCounts()
	if _, _, run.Twice, err = child.stop(); err != nil {
		return run, err
	}
	summarize(&run)
	return run, nil
}

// summarize fills a run's counts and statistics from its turns.
func summarize(r *faultRun) {
	var first, later, thirdOn, whole []time.Duration
	for i, t := range r.TurnsDetail {
		r.Turns++
		if t.Answered {
			r.Answered++
		}
		if t.Fallback {
			r.Fallbacks++
		}
		if t.Junk {
			r.Junk++
		}
		if t.Filler {
			r.Fillers++
		}
		first = append(first, t.FirstSpeech)
		whole = append(whole, t.Total)
		if i == 0 {
			r.FirstTurn = t.FirstSpeech
		} else {
			later = append(later, t.FirstSpeech)
		}
		if i >= 2 {
			thirdOn = append(thirdOn, t.FirstSpeech)
		}
	}
	r.FirstSpeech, r.Later, r.ThirdOn, r.Whole = statsOf(first), statsOf(later), statsOf(thirdOn), statsOf(whole)
}

// faultTargets checks the runs against docs/failures.md's targets.
func faultTargets(runs []faultRun, base faultRun) []faultTarget {
	var out []faultTarget
	ms := func(d time.Duration) string { return round(d).String() }
	for _, r := range runs {
		switch r.Scenario {
		case scenarioDown, scenarioDown500:
			what := "model down"
			if r.Scenario == scenarioDown500 {
				what = "model down behind a proxy (HTTP 500)"
			}
			out = append(out,
				faultTarget{r.Engine, what + ": the first turn's first speech ≤ 1.5 s", ms(r.FirstTurn), r.FirstTurn <= 1500*time.Millisecond},
				faultTarget{r.Engine, what + ": every later turn ≤ 100 ms above the offline engine's own time (max vs max)",
					fmt.Sprintf("later max %s, offline max %s (%+d ms); p50 %s vs %s", ms(r.Later.Max), ms(base.FirstSpeech.Max),
						(r.Later.Max - base.FirstSpeech.Max).Milliseconds(), ms(r.Later.P50), ms(base.FirstSpeech.P50)),
					r.Later.Max <= base.FirstSpeech.Max+100*time.Millisecond},
				faultTarget{r.Engine, what + ": the third and later turns ≤ 100 ms above the offline engine's own time (max vs max)",
					fmt.Sprintf("third-on max %s, offline max %s (%+d ms); p50 %s", ms(r.ThirdOn.Max), ms(base.FirstSpeech.Max),
						(r.ThirdOn.Max - base.FirstSpeech.Max).Milliseconds(), ms(r.ThirdOn.P50)),
					r.ThirdOn.Max <= base.FirstSpeech.Max+100*time.Millisecond})
		case scenarioBack:
			m := "never"
			if r.Recovery >= 0 {
				m = ms(r.Recovery)
			}
			out = append(out, faultTarget{r.Engine, "the model is used again within 10 s of coming back", m, r.Recovery >= 0 && r.Recovery <= 10*time.Second})
		case scenarioHang:
			out = append(out, faultTarget{r.Engine, "model hanging: first speech ≤ 2.5 s on every turn", "max " + ms(r.FirstSpeech.Max), r.FirstSpeech.Max <= 2500*time.Millisecond})
		case scenarioHTTP500, scenarioJunk, scenarioHangs:
			out = append(out, faultTarget{r.Engine, r.Faults + ": 100% answered, 0 junk spoken, first speech p95 ≤ 2.5 s",
				fmt.Sprintf("%d/%d answered, %d junk, p95 %s", r.Answered, r.Turns, r.Junk, ms(r.FirstSpeech.P95)),
				r.Answered == r.Turns && r.Junk == 0 && r.FirstSpeech.P95 <= 2500*time.Millisecond})
		}
	}
	return out
}

func printFaults(w io.Writer, r faultReport) error {
	s := r.Settings
	fmt.Fprintf(w, "nadine bench --faults on %s\n", r.Machine["summary"])
	fmt.Fprintf(w, "models: %v to first token, %.0f tokens/s; %v between a reply and the next transcript; seed %d\n", s.TTFT, s.TokenRate, s.Pause, s.Seed)
	fmt.Fprintln(w, "first speech: from the transcript on MQTT to the first speak message, a filler included; fallback: answered by another engine than the configured one")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tENGINE\tTURNS\tANSWERED\tFALLBACK\tJUNK SPOKEN\tFILLERS\tFIRST SPEECH p50\tp95\tmax\tWHOLE TURN p95\tFAULTS INJECTED")
	for _, x := range r.Runs {
		var inj []string
		for k, v := range x.Injected {
			inj = append(inj, fmt.Sprintf("%s %d", k, v))
		}
		sort.Strings(inj)
		note := strings.Join(inj, ", ")
		if note == "" {
			note = x.Faults
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%v\t%v\t%v\t%v\t%s\n", x.Scenario, x.Engine, x.Turns, x.Answered, x.Fallbacks, x.Junk, x.Fillers,
			round(x.FirstSpeech.P50), round(x.FirstSpeech.P95), round(x.FirstSpeech.Max), round(x.Whole.P95), note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ENGINE\tTARGET\tMEASURED\tMET")
	for _, t := range r.Targets {
		met := "no"
		if t.Met {
			met = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.Engine, t.Target, t.Measured, met)
	}
	return tw.Flush()
}
