package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/internal/loopback"
)

// benchEngines: react-raw is ReAct without the contextualizer, graph-seed the
// graph with its original sequential wiring, both for comparison.
var benchEngines = []string{"react", "react-raw", "graph", "graph-seed"}

// benchSettings are the bench's knobs, as reported.
type benchSettings struct {
	Turns        int           `json:"turns"`
	TTFT         time.Duration `json:"ttft_ns"`
	TokenRate    float64       `json:"tokens_per_second"`
	EmbedLatency time.Duration `json:"embedding_latency_ns"`
	ToolLatency  time.Duration `json:"search_latency_ns"`
	Pause        time.Duration `json:"pause_ns"`
	// Appraiser is the graph's scripted appraisal: fixed, or a label changing
	// on half the turns (benchAppraisers).
	Appraiser string `json:"appraiser"`

	// The extra runs' knobs (benchlatency.go), reported in their rows.
	interim       time.Duration // interim transcripts this long before the final
	interimStable bool          // marked stable: true
	memories      int           // memories the bench user has
}

// kindStats summarizes the turns of one type.
type kindStats struct {
	Kind      string        `json:"kind"`
	Turns     int           `json:"turns"`
	FirstP50  time.Duration `json:"first_speak_p50_ns"`
	FirstP95  time.Duration `json:"first_speak_p95_ns"`
	LastP50   time.Duration `json:"last_speak_p50_ns"`
	LastP95   time.Duration `json:"last_speak_p95_ns"`
	FillerP50 time.Duration `json:"filler_p50_ns,omitempty"`
	// EndP50/EndP95: the final speak message after the last sentence (ReAct's
	// marker once action_input closes; 0 when the last sentence is final).
	EndP50       time.Duration `json:"end_after_last_p50_ns"`
	EndP95       time.Duration `json:"end_after_last_p95_ns"`
	ModelCalls   float64       `json:"model_calls"`       // mean per turn
	CriticalPath float64       `json:"critical_path"`     // mean model calls waited on in sequence
	CriticalMax  int           `json:"critical_path_max"` // the most of any turn
	// Kept and Discarded count the turns' speculative model calls (the
	// graph's response, ReAct's agent call) by verdict.
	Kept      int `json:"speculations_kept"`
	Discarded int `json:"speculations_discarded"`
}

// engineReport is one engine's figures.
type engineReport struct {
	Engine string      `json:"engine"`
	Kinds  []kindStats `json:"kinds"`
	RSS    int64       `json:"rss_bytes"`
	MaxRSS int64       `json:"max_rss_bytes"`
	Twice  int         `json:"answered_twice"`
	// Framework*: at zero model latency, a turn's time outside model and tool
	// calls, as traced and as the robot sees it (MQTT hops included).
	FrameworkP50    time.Duration `json:"framework_p50_ns"`
	FrameworkP95    time.Duration `json:"framework_p95_ns"`
	FrameworkBusP50 time.Duration `json:"framework_with_mqtt_p50_ns"`
	FrameworkBusP95 time.Duration `json:"framework_with_mqtt_p95_ns"`
	ZeroTurnP50     time.Duration `json:"zero_latency_turn_p50_ns"`
	Turns           []servedTurn  `json:"turns"`
	seeded          time.Duration // writing the person's memories (--memories)
}

// benchReport is what nadine bench prints.
type benchReport struct {
	Machine  map[string]string `json:"machine"`
	Settings benchSettings     `json:"settings"`
	Engines  []engineReport    `json:"engines"`
	Fleet    []fleetResult     `json:"fleet,omitempty"`
	Interim  []interimReport   `json:"interim,omitempty"`  // --interim (benchlatency.go)
	Memories []memoriesReport  `json:"memories,omitempty"` // --memories
}

// runBench measures turn latency through the real serve path, per engine, and
// again at zero model latency for the framework's own time (docs/latency.md).
func runBench(ctx context.Context, args []string, e env) error {
	if len(args) > 0 && args[0] == "inbox" {
		return runInboxBench(ctx, args[1:], e) // benchinbox.go
	}
	if len(args) > 0 && args[0] == "interrupt" {
		return runInterruptBench(ctx, args[1:], e) // benchinterrupt.go
	}
	if len(args) > 0 && args[0] == "bus" {
		return runBusBench(ctx, args[1:], e) // benchbus.go
	}
	if i := slices.IndexFunc(args, isFaultsFlag); i >= 0 {
		// nadine bench --faults: the fault bench (benchfaults.go).
		return runFaultBench(ctx, slices.Delete(slices.Clone(args), i, i+1), e)
	}
	fs := flags("bench", e)
	engines := fs.String("engines", strings.Join(benchEngines, ","), "engines to measure: react, react-raw (no contextualizer), graph, graph-seed (the graph's original sequential wiring)")
	turns := fs.Int("turns", 40, "turns of the conversation with each engine")
	ttft := fs.Duration("ttft", 300*time.Millisecond, "time to first token of every model call")
	rate := fs.Float64("rate", 50, "tokens per second every model generates (about four bytes of text per token)")
	embed := fs.Duration("embed-latency", 100*time.Millisecond, "latency of an embedding request")
	tool := fs.Duration("search-latency", 300*time.Millisecond, "latency of a web search")
	appraiser := fs.String("appraiser", "fixed", "the graph's scripted appraisal: fixed (joy 5 every turn), small-talk (joy, neutral or surprise, the label changing on half the turns) or friendly (mostly those, now and then sadness, fear, anger or disgust, changing on half the turns)")
	pause := fs.Duration("pause", time.Second, "time between the end of a reply and the next transcript (the person listens and answers)")
	zeroTurns := fs.Int("zero-turns", 20, "turns of the zero-latency run (0 skips it)")
	robots := fs.String("robots", "", "also serve this many robots at once from one process, e.g. 10,100,1000")
	fleetFlag := fs.String("fleet", "", "also run PROCESSESxROBOTS: that many nadine serve processes with that many robots each, on one PostgreSQL (--postgres) and one Mosquitto, e.g. 2x50")
	postgresURL := fs.String("postgres", "", "PostgreSQL URL of the --fleet runs (each run uses a new schema, dropped afterwards)")
	fleetPool := fs.Int("fleet-pool", 0, "store.max_conns of each --fleet process (0: the default)")
	robotTurns := fs.Int("robot-turns", 4, "turns of each robot's conversation in the --robots and --fleet runs")
	asJSON := fs.Bool("json", false, "print JSON instead of tables")
	tracesPath := fs.String("traces", "", "write every turn's trace to this file, one JSON object per line")
	lat := addLatencyFlags(fs.FlagSet)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := lat.check(); err != nil {
		return err
	}
	if _, ok := benchAppraisers[*appraiser]; !ok {
		return usageError{fmt.Sprintf("--appraiser: %q is not fixed, small-talk or friendly", *appraiser)}
	}
	names, err := parseEngines(*engines)
	if err != nil {
		return err
	}
	fleet, err := parseCounts(*robots)
	if err != nil {
		return err
	}
	tops := make([]fleetTopology, 0, len(fleet))
	for _, n := range fleet {
		tops = append(tops, fleetTopology{Processes: 1, Robots: n})
	}
	more, err := parseFleet(*fleetFlag, *postgresURL, *fleetPool)
	if err != nil {
		return err
	}
	tops = append(tops, more...)
	if *turns < 0 || (*turns == 0 && len(tops) == 0 && *lat.memories == 0) || *rate < 0 || *robotTurns < 1 {
		return usageError{"--turns and --robot-turns must be at least 1 (--turns 0 with --robots or --fleet runs those only, with --memories the memories run), --rate positive (0: instant)"}
	}
	set := benchSettings{Turns: *turns, TTFT: *ttft, TokenRate: *rate, EmbedLatency: *embed, ToolLatency: *tool, Pause: *pause, Appraiser: *appraiser}
	dir, err := os.MkdirTemp("", "nadine-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	progress := progressTo(e.stderr, *asJSON)

	var traces io.Writer
	if *tracesPath != "" {
		f, err := os.Create(*tracesPath)
		if err != nil {
			return fmt.Errorf("--traces: %w", err)
		}
		defer f.Close()
		traces = f
	}
	report := benchReport{Machine: machine(), Settings: set}
	for _, name := range names {
		if *turns == 0 {
			break
		}
		progress("bench: %s, %d turns…", name, *turns)
		r, err := benchServed(ctx, name, set, filepath.Join(dir, name), *turns, *pause, traces)
		if err != nil {
			return fmt.Errorf("bench %s: %w", name, err)
		}
		if *zeroTurns > 0 {
			progress("bench: %s at zero model latency, %d turns…", name, *zeroTurns)
			zero := benchSettings{Turns: *zeroTurns, Appraiser: set.Appraiser}
			z, err := benchServed(ctx, name, zero, filepath.Join(dir, name+"-zero"), *zeroTurns, 100*time.Millisecond, nil)
			if err != nil {
				return fmt.Errorf("bench %s at zero latency: %w", name, err)
			}
			var own, withBus, whole []time.Duration
			for _, t := range z.Turns {
				own = append(own, max(t.Traced-t.External, 0))
				withBus = append(withBus, max(t.Total-t.External, 0))
				whole = append(whole, t.Total)
			}
			r.FrameworkP50, r.FrameworkP95, r.ZeroTurnP50 = percentile(own, 50), percentile(own, 95), percentile(whole, 50)
			r.FrameworkBusP50, r.FrameworkBusP95 = percentile(withBus, 50), percentile(withBus, 95)
		}
		report.Engines = append(report.Engines, r)
	}
	if *turns > 0 || *lat.memories > 0 {
		if err := lat.run(ctx, names, set, dir, *pause, &report, progress); err != nil {
			return err
		}
	}
	for i, top := range tops {
		for _, name := range names {
			if name == "graph-seed" || name == "react-raw" {
				continue // variants, for comparison
			}
			top.Engine = name
			progress("bench: %d × %d robots at once, engine %s, %d turns each…", top.Processes, top.Robots, name, *robotTurns)
			srv, serper := startBenchServers(set)
			s := benchSetup{modelURL: srv.URL(), serperURL: serper.URL, dir: filepath.Join(dir, fmt.Sprintf("fleet-%d-%s-%dx%d", i, name, top.Processes, top.Robots)), engine: name}
			f, err := runFleet(ctx, s, top, *robotTurns, *pause)
			srv.Close()
			serper.Close()
			if err != nil {
				return fmt.Errorf("bench %d × %d robots, %s: %w", top.Processes, top.Robots, name, err)
			}
			report.Fleet = append(report.Fleet, f)
		}
	}
	if *asJSON {
		return json.NewEncoder(e.stdout).Encode(report)
	}
	return printBench(e.stdout, report)
}

// startBenchServers starts the scripted model server and the search API.
func startBenchServers(set benchSettings) (*llmtest.Server, *loopback.Server) {
	srv := llmtest.Start(llmtest.WithLatency(set.TTFT), llmtest.WithTokenRate(set.TokenRate),
		llmtest.WithEmbeddingLatency(set.EmbedLatency), llmtest.WithDimensions(256))
	scriptBenchModels(srv, set.Appraiser)
	return srv, startSerper(set.ToolLatency)
}

// benchServed runs one engine's conversation through nadine serve and
// summarizes it.
func benchServed(ctx context.Context, name string, set benchSettings, dir string, turns int, pause time.Duration, traces io.Writer) (engineReport, error) {
	srv, serper := startBenchServers(set)
	defer srv.Close()
	defer serper.Close()
	s := benchSetup{modelURL: srv.URL(), serperURL: serper.URL, dir: dir, engine: name, traces: traces,
		interim: set.interim, interimStable: set.interimStable, memories: set.memories}
	switch name {
	case "graph-seed":
		s.engine, s.seedWiring = "graph", true
	case "react-raw":
		s.engine, s.raw = "react", true
	}
	run, err := runServed(ctx, s, turns, pause)
	if err != nil {
		return engineReport{}, err
	}
	r := engineReport{Engine: name, RSS: run.RSS, MaxRSS: run.MaxRSS, Twice: run.Twice, Turns: run.Turns, seeded: run.Seeded}
	for _, kind := range []string{turnGreeting, turnPlain, turnPlainMemory, turnSearch} {
		var first, last, end, filler []time.Duration
		k := kindStats{Kind: kind}
		for _, t := range run.Turns {
			if t.Kind != kind {
				continue
			}
			k.Turns++
			first, last = append(first, t.FirstSpeak), append(last, t.LastSpeak)
			if t.FirstSpeak > 0 {
				end = append(end, max(0, t.Total-t.LastSpeak))
			}
			if t.Filler > 0 {
				filler = append(filler, t.Filler)
			}
			k.ModelCalls += float64(t.ModelCalls)
			k.CriticalPath += float64(t.CriticalPath)
			k.CriticalMax = max(k.CriticalMax, t.CriticalPath)
			k.Kept += t.Kept
			k.Discarded += t.Discarded
		}
		if k.Turns == 0 {
			continue
		}
		k.ModelCalls /= float64(k.Turns)
		k.CriticalPath /= float64(k.Turns)
		k.FirstP50, k.FirstP95 = percentile(first, 50), percentile(first, 95)
		k.LastP50, k.LastP95 = percentile(last, 50), percentile(last, 95)
		k.FillerP50 = percentile(filler, 50)
		k.EndP50, k.EndP95 = percentile(end, 50), percentile(end, 95)
		r.Kinds = append(r.Kinds, k)
	}
	return r, nil
}

func printBench(w io.Writer, r benchReport) error {
	s := r.Settings
	fmt.Fprintf(w, "nadine bench on %s\n", r.Machine["summary"])
	fmt.Fprintf(w, "models: %v to first token, %.0f tokens/s; embeddings %v; web search %v; %d turns per engine, %v between a reply and the next transcript; appraiser %s\n",
		s.TTFT, s.TokenRate, s.EmbedLatency, s.ToolLatency, s.Turns, s.Pause, s.Appraiser)
	if len(r.Engines) == 0 { // --turns 0: the memories and fleet runs only
		if err := printLatencyRows(w, r); err != nil {
			return err
		}
		return printFleet(w, r.Fleet)
	}
	fmt.Fprintln(w, "times from the transcript on MQTT to the reply's speak messages (fillers excluded); END: the final speak message after the last sentence;")
	fmt.Fprintln(w, "plain, memories: plain turns that found a memory of the person; SPECULATIONS: the speculative model calls kept / discarded")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ENGINE\tTURN\tN\tFIRST SPEAK p50\tp95\tLAST SPEAK p50\tp95\tEND p50\tp95\tFILLER p50\tMODEL CALLS\tIN SEQUENCE (max)\tSPECULATIONS")
	for _, e := range r.Engines {
		for _, k := range e.Kinds {
			filler := "-"
			if k.FillerP50 > 0 {
				filler = round(k.FillerP50).String()
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%v\t%v\t%v\t%v\t%v\t%v\t%s\t%.1f\t%.1f (%d)\t%d / %d\n", e.Engine, k.Kind, k.Turns,
				round(k.FirstP50), round(k.FirstP95), round(k.LastP50), round(k.LastP95), round(k.EndP50), round(k.EndP95),
				filler, k.ModelCalls, k.CriticalPath, k.CriticalMax, k.Kept, k.Discarded)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ENGINE\tRSS AFTER THE CONVERSATION\tPEAK RSS\tFRAMEWORK TIME/TURN p50\tp95\tWITH MQTT p50\tp95\tTURN AT ZERO LATENCY p50\tANSWERED TWICE")
	for _, e := range r.Engines {
		fw := []string{"-", "-", "-", "-", "-"}
		if e.ZeroTurnP50 > 0 {
			for i, d := range []time.Duration{e.FrameworkP50, e.FrameworkP95, e.FrameworkBusP50, e.FrameworkBusP95, e.ZeroTurnP50} {
				fw[i] = round(d).String()
			}
		}
		fmt.Fprintf(tw, "%s\t%.1f MB\t%.1f MB\t%s\t%d\n", e.Engine, mb(e.RSS), mb(e.MaxRSS), strings.Join(fw, "\t"), e.Twice)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "framework time: at zero model latency, a turn's time minus the time inside model and tool calls; in nadine (as traced), and with MQTT (transcript published to final speak message received)")
	if err := printLatencyRows(w, r); err != nil {
		return err
	}
	return printFleet(w, r.Fleet)
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }

// parseEngines checks a comma-separated list of bench engines.
func parseEngines(s string) ([]string, error) {
	var out []string
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !slices.Contains(benchEngines, n) {
			return nil, usageError{fmt.Sprintf("--engines: unknown engine %q (known: %s)", n, strings.Join(benchEngines, ", "))}
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, usageError{"--engines: name at least one engine"}
	}
	return out, nil
}

// parseCounts reads "10,100,1000".
func parseCounts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, usageError{fmt.Sprintf("--robots: %q is not a positive number", f)}
		}
		out = append(out, n)
	}
	return out, nil
}

// machine describes where the bench ran.
func machine() map[string]string {
	m := map[string]string{"os": runtime.GOOS, "arch": runtime.GOARCH, "cpus": strconv.Itoa(runtime.NumCPU()), "go": runtime.Version()}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				m["cpu"] = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	m["summary"] = fmt.Sprintf("%s/%s, %s CPUs (%s), %s", m["os"], m["arch"], m["cpus"], m["cpu"], m["go"])
	return m
}

// round keeps three significant digits or so.
func round(d time.Duration) time.Duration {
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond)
	case d < time.Second:
		return d.Round(100 * time.Microsecond)
	}
	return d.Round(time.Millisecond)
}

// percentile returns the p-th percentile (nearest rank) of d.
func percentile(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := (p*len(s) + 99) / 100 // ceil(p/100 * n)
	return s[min(max(i-1, 0), len(s)-1)]
}
