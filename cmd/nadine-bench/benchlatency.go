package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/sqlite"
)

// The latency bench's extra runs, each a served conversation with its own rows:
// interims ahead of the finals (early turns), and many stored memories.

// latencyFlags are the flags of the extra runs.
type latencyFlags struct {
	interim  *time.Duration
	stable   *bool
	memories *int
	memTurns *int
}

// addLatencyFlags defines them on the bench's flag set.
func addLatencyFlags(fs *flag.FlagSet) latencyFlags {
	return latencyFlags{
		interim:  fs.Duration("interim", 0, "also run each engine's conversation with speech-to-text publishing each transcript as an interim one (final: false) this long before the final, e.g. 500ms (0 skips it)"),
		stable:   fs.Bool("interim-stable", false, "mark the --interim transcripts stable: true (else they count as stable after turns.preemptive_after of the same words)"),
		memories: fs.Int("memories", 0, "also run each engine at zero model latency for a person with this many stored memories, e.g. 100000 (0 skips it)"),
		memTurns: fs.Int("memory-turns", 20, "turns of the --memories run"),
	}
}

// check refuses impossible values.
func (f latencyFlags) check() error {
	if *f.interim < 0 || *f.memories < 0 || *f.memTurns < 1 {
		return usageError{"--interim and --memories must not be negative, --memory-turns at least 1"}
	}
	return nil
}

// interimReport is one engine's conversation with interim transcripts
// ahead: times run from publishing the final transcript.
type interimReport struct {
	Engine string        `json:"engine"`
	Lead   time.Duration `json:"interim_lead_ns"` // interim published this long before the final
	Stable bool          `json:"interim_stable"`
	Kinds  []kindStats   `json:"kinds"`
	// Adopted counts turns answered by their early turn, Discarded those whose
	// early turn was cancelled.
	Adopted   int `json:"adopted"`
	Discarded int `json:"discarded"`
	Turns     int `json:"turns"`
}

// memoriesReport is one engine at zero model latency for a person with
// many memories.
type memoriesReport struct {
	Engine   string        `json:"engine"`
	Memories int           `json:"memories"`
	Seeded   time.Duration `json:"seed_ns"` // writing them into the store
	Turns    int           `json:"turns"`
	// ZeroTurnP50/P95: transcript published to final speak received; in
	// nadine: the traced turn minus the time inside model and tool calls.
	ZeroTurnP50 time.Duration `json:"zero_latency_turn_p50_ns"`
	ZeroTurnP95 time.Duration `json:"zero_latency_turn_p95_ns"`
	// FirstTurn is apart: its memory vectors are not loaded yet unless they were
	// when the person was recognized.
	FirstTurn    time.Duration `json:"first_turn_ns"`
	FrameworkP50 time.Duration `json:"framework_p50_ns"`
	RSS          int64         `json:"rss_bytes"`
	MaxRSS       int64         `json:"max_rss_bytes"`
}

// run runs the extra runs of every engine into report.
func (f latencyFlags) run(ctx context.Context, names []string, set benchSettings, dir string, pause time.Duration, report *benchReport, progress func(string, ...any)) error {
	for _, name := range names {
		if *f.interim > 0 && set.Turns > 0 {
			progress("bench: %s with interim transcripts %v ahead (stable %v), %d turns…", name, *f.interim, *f.stable, set.Turns)
			s := set
			s.interim, s.interimStable = *f.interim, *f.stable
			r, err := benchServed(ctx, name, s, filepath.Join(dir, name+"-interim"), set.Turns, pause, nil)
			if err != nil {
				return fmt.Errorf("bench %s with interim transcripts: %w", name, err)
			}
			report.Interim = append(report.Interim, interimOf(r, s))
		}
		if *f.memories > 0 {
			progress("bench: %s at zero model latency for a person with %d memories, %d turns…", name, *f.memories, *f.memTurns)
			s := benchSettings{Turns: *f.memTurns, memories: *f.memories}
			r, err := benchServed(ctx, name, s, filepath.Join(dir, name+"-memories"), *f.memTurns, 100*time.Millisecond, nil)
			if err != nil {
				return fmt.Errorf("bench %s with %d memories: %w", name, *f.memories, err)
			}
			report.Memories = append(report.Memories, memoriesOf(r, s))
		}
	}
	return nil
}

func interimOf(r engineReport, s benchSettings) interimReport {
	out := interimReport{Engine: r.Engine, Lead: s.interim, Stable: s.interimStable, Kinds: r.Kinds, Turns: len(r.Turns)}
	for _, t := range r.Turns {
		switch t.Early {
		case earlyKept:
			out.Adopted++
		case earlyDiscarded:
			out.Discarded++
		}
	}
	return out
}

func memoriesOf(r engineReport, s benchSettings) memoriesReport {
	var whole, own []time.Duration
	for _, t := range r.Turns {
		whole = append(whole, t.Total)
		own = append(own, max(t.Traced-t.External, 0))
	}
	out := memoriesReport{Engine: r.Engine, Memories: s.memories, Seeded: r.seeded, Turns: len(r.Turns),
		ZeroTurnP50: percentile(whole, 50), ZeroTurnP95: percentile(whole, 95), FrameworkP50: percentile(own, 50),
		RSS: r.RSS, MaxRSS: r.MaxRSS}
	if len(whole) > 0 {
		out.FirstTurn = whole[0]
	}
	return out
}

// What a turn's trace says of its early turn (servedTurn.Early).
const (
	earlyKept      = "kept"
	earlyDiscarded = "discarded"
)

// earlyOf is "kept" when an early turn answered, "discarded" when some were
// cancelled, "" when none started.
func earlyOf(tr nadine.TraceData) string {
	verdict := ""
	for _, sp := range tr.Speculations {
		if sp.Kind != nadine.SpeculateTurn {
			continue
		}
		if sp.Kept {
			return earlyKept
		}
		verdict = earlyDiscarded
	}
	return verdict
}

// sayInterim publishes the final's exact words as an interim, lead before it:
// the scripted models tell questions apart by exact text.
func (c *servedChild) sayInterim(ctx context.Context, text string, lead time.Duration, stable bool) error {
	msg := map[string]any{"text": text, "language": "en", "final": false}
	if stable {
		msg["stable"] = true
	}
	if err := c.peer.publish(ctx, "nadine/stt/transcript", msg); err != nil {
		return err
	}
	select {
	case <-time.After(lead):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// benchMemoryTexts are the kinds of things a person's memories say; each
// memory gets a number and a day, so that no two are the same text.
var benchMemoryTexts = []string{
	"Robin talked about sailing on the lake with friends on day %d, memory %d.",
	"Robin said the motor show was crowded on day %d and liked the electric cars, memory %d.",
	"Robin and Nadine spoke about Geneva, the old town and the jet d'eau on day %d, memory %d.",
	"Robin felt happy after a concert at the Victoria Hall on day %d, memory %d.",
	"Robin asked about MIRALab and social robots on day %d, memory %d.",
}

// seedMemories stores n chunks and episodes with llmtest.Vector's vectors in
// the bench embedder's space, so serve's searches find them; it returns the time.
func seedMemories(ctx context.Context, st *sqlite.Store, n int) (time.Duration, error) {
	start := time.Now()
	name, err := benchEmbedderName()
	if err != nil {
		return 0, err
	}
	const batch = 1000
	types := []nadine.MemoryType{nadine.MemoryConversation, nadine.MemoryEpisode}
	day := time.Date(2025, 1, 1, 10, 0, 0, 0, time.UTC)
	for from := 0; from < n; from += batch {
		ms := make([]nadine.Memory, 0, min(batch, n-from))
		for i := from; i < min(from+batch, n); i++ {
			text := fmt.Sprintf(benchMemoryTexts[i%len(benchMemoryTexts)], i/50, i)
			ms = append(ms, nadine.Memory{UserID: benchUserID, Type: types[i%2], Text: text,
				Time: day.Add(time.Duration(i) * 10 * time.Minute), Embedder: name, Embedding: llmtest.Vector(text, benchDimensions)})
		}
		if _, err := st.AddMemories(ctx, ms); err != nil {
			return 0, fmt.Errorf("bench: seed memories: %w", err)
		}
	}
	return time.Since(start), nil
}

// benchDimensions are the embeddings' dimensions in the bench's
// configuration (benchConfig) and scripted server.
const benchDimensions = 256

// benchEmbedderName is serve's embedder name in the bench's configuration,
// which seeded vectors must carry to be searched.
func benchEmbedderName() (string, error) {
	d, err := askDefaults(context.Background())
	if err != nil {
		return "", err
	}
	e, err := openai.NewEmbedder(openai.EmbedderConfig{BaseURL: "http://127.0.0.1/v1", Model: d.EmbedModel, Dimensions: benchDimensions})
	if err != nil {
		return "", err
	}
	return e.Name(), nil
}

// printLatencyRows prints the interim and memories rows, if any.
func printLatencyRows(w io.Writer, r benchReport) error {
	if len(r.Interim) > 0 {
		err := printSection(w, "with interim transcripts ahead of the final ones: times from the final transcript on MQTT (fillers excluded)",
			"ENGINE\tINTERIM\tTURN\tN\tFIRST SPEAK p50\tp95\tLAST SPEAK p50\tp95\tEARLY TURN ADOPTED\tCANCELLED", func(tw io.Writer) {
				for _, e := range r.Interim {
					lead := e.Lead.String()
					if e.Stable {
						lead += " stable"
					}
					for _, k := range e.Kinds {
						fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%v\t%v\t%v\t%v\t%d/%d\t%d\n", e.Engine, lead, k.Kind, k.Turns,
							round(k.FirstP50), round(k.FirstP95), round(k.LastP50), round(k.LastP95), e.Adopted, e.Turns, e.Discarded)
					}
				}
			})
		if err != nil {
			return err
		}
	}
	if len(r.Memories) == 0 {
		return nil
	}
	return printSection(w, "one person with many memories, at zero model latency",
		"ENGINE\tMEMORIES\tSEEDED IN\tTURNS\tTURN p50\tp95\tFIRST TURN\tFRAMEWORK TIME p50\tRSS AFTER\tPEAK RSS", func(tw io.Writer) {
			for _, e := range r.Memories {
				fmt.Fprintf(tw, "%s\t%d\t%v\t%d\t%v\t%v\t%v\t%v\t%.1f MB\t%.1f MB\n", e.Engine, e.Memories, round(e.Seeded), e.Turns,
					round(e.ZeroTurnP50), round(e.ZeroTurnP95), round(e.FirstTurn), round(e.FrameworkP50), mb(e.RSS), mb(e.MaxRSS))
			}
		})
}

// printSection prints a blank line, a title and a table: its header and
// the rows rows writes.
func printSection(w io.Writer, title, header string, rows func(io.Writer)) error {
	fmt.Fprintln(w)
	fmt.Fprintln(w, title)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	rows(tw)
	return tw.Flush()
}
