package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/knowledge"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/react"
	"github.com/nadine-robot/nadine/sqlite"
)

// benchResult is one engine's figures.
type benchResult struct {
	Engine       string        `json:"engine"`
	Turns        int           `json:"turns"`
	FirstSpeech  time.Duration `json:"first_speech_ns"` // median, from the transcript to the first sentence
	Reply        time.Duration `json:"reply_ns"`        // median, from the transcript to the whole reply
	ModelCalls   float64       `json:"model_calls"`     // mean per turn
	CriticalPath float64       `json:"critical_path"`   // mean model calls waited on in sequence
}

// runBench measures every engine's turn latency against a scripted
// OpenAI-compatible server that answers after a fixed latency (the time to
// first token of a real model) and streams word by word. It needs no
// network and no key; the figures show what the engines' structure costs,
// not what a given model costs.
func runBench(ctx context.Context, args []string, e env) error {
	fs, _ := flags("bench", e)
	turns := fs.Int("turns", 5, "turns per engine")
	latency := fs.Duration("latency", 300*time.Millisecond, "simulated time to first token of every model call")
	chunk := fs.Duration("chunk", 15*time.Millisecond, "simulated time between streamed words")
	pause := fs.Duration("pause", time.Second, "time between turns (the user speaking); not counted")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *turns < 1 {
		return usageError{"--turns must be at least 1"}
	}
	srv := llmtest.Start(llmtest.WithLatency(*latency), llmtest.WithDelay(*chunk))
	defer srv.Close()
	scriptBench(srv)

	dir, err := os.MkdirTemp("", "nadine-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	start := time.Now()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "startup.db"), sqlite.Options{})
	if err != nil {
		return err
	}
	if _, err := knowledge.EnsureDefault(ctx, st, lexical.New(0)); err != nil {
		return err
	}
	st.Close()
	startup := time.Since(start)

	var results []benchResult
	for _, name := range []string{"offline", "react", "graph", "graph-seed-wiring"} {
		r, err := benchEngine(ctx, name, srv, filepath.Join(dir, name), *turns, *pause)
		if err != nil {
			return fmt.Errorf("bench %s: %w", name, err)
		}
		results = append(results, r)
	}
	if *asJSON {
		return json.NewEncoder(e.stdout).Encode(map[string]any{"latency_ns": *latency, "chunk_ns": *chunk, "startup_ns": startup, "engines": results})
	}
	fmt.Fprintf(e.stdout, "nadine bench: %d turns per engine, %v apart; every model call answers after %v, then streams a word every %v\n", *turns, *pause, *latency, *chunk)
	fmt.Fprintf(e.stdout, "cold start (open a new store, build the default knowledge base): %v\n\n", round(startup))
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ENGINE\tFIRST SENTENCE (median)\tWHOLE REPLY (median)\tMODEL CALLS/TURN\tIN SEQUENCE")
	for _, r := range results {
		fmt.Fprintf(w, "%s\t%v\t%v\t%.1f\t%.1f\n", r.Engine, round(r.FirstSpeech), round(r.Reply), r.ModelCalls, r.CriticalPath)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	g, seed := results[2], results[3]
	if g.FirstSpeech > 0 {
		fmt.Fprintf(e.stdout, "\ngraph engine, parallel wiring vs seed 001's sequential wiring: first sentence %.1fx sooner, whole reply %.1fx sooner\n",
			float64(seed.FirstSpeech)/float64(g.FirstSpeech), float64(seed.Reply)/float64(g.Reply))
	}
	return nil
}

// scriptBench answers every role with a plausible, valid answer. Each role
// gets its own model name so that the answers can be told apart.
func scriptBench(srv *llmtest.Server) {
	srv.On(llmtest.MatchModel("react_agent")).Reply("```json\n" + `{"action": "Final Answer", "category": "information request", "emotion": "joy", "emotion_intensity": 5, "causing_person": "human", "action_input": "Geneva sits at the tip of Lake Geneva, with the Alps on the horizon. It is home to many international organisations and to my lab, MIRALab."}` + "\n```")
	srv.On(llmtest.MatchModel("contextualizer")).Reply("What can you tell me about Geneva?")
	srv.On(llmtest.MatchModel(agents.RoleIntent)).Reply("continue_conversation")
	srv.On(llmtest.MatchModel(agents.RoleAppraisal)).Reply(`{"emotion":"joy","intensity":0.5}`)
	srv.On(llmtest.MatchModel(agents.RoleOrchestrator)).Reply(`{"plan":[]}`)
	srv.On(llmtest.MatchModel(agents.RoleContextSummary)).Reply("The user asks Nadine about Geneva.")
	srv.On(llmtest.MatchModel(agents.RoleMemoryUpdate)).Reply(`{"user_name":"","current_company":"","current_position":"","location":"","hobbies":[],"interests":[]}`)
	srv.On(llmtest.MatchModel(agents.RoleResponse)).Reply("Geneva sits at the tip of Lake Geneva, with the Alps on the horizon. It is home to many international organisations and to my lab, MIRALab.")
}

// benchEngine runs turns through a dialogue manager over one engine and a
// fresh store, as a user would.
func benchEngine(ctx context.Context, name string, srv *llmtest.Server, dir string, turns int, pause time.Duration) (benchResult, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return benchResult{}, err
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "nadine.db"), sqlite.Options{})
	if err != nil {
		return benchResult{}, err
	}
	defer st.Close()
	emb := lexical.New(0)
	if _, err := knowledge.EnsureDefault(ctx, st, emb); err != nil {
		return benchResult{}, err
	}
	models := func(role string) nadine.ChatModel {
		c, err := openai.New(openai.Config{Profile: "bench", BaseURL: srv.URL(), Model: role, MaxRetries: -1, Timeout: time.Minute})
		if err != nil {
			panic(err) // the configuration above is fixed and valid
		}
		return c
	}
	var eng nadine.Engine
	switch name {
	case "offline":
		eng = offline.New(offline.Options{Store: st})
	case "react":
		eng, err = react.New(react.Options{Agent: models("react_agent"), Contextualizer: models("contextualizer"),
			Memories: st, Knowledge: st, Embedder: emb})
	case "graph", "graph-seed-wiring":
		var g *agents.Engine
		g, err = agents.New(agents.Options{Models: models, Store: st, Embedder: emb, MemoryAgents: true, SeedWiring: name != "graph"})
		if g != nil {
			defer g.Close()
		}
		eng = g
	}
	if err != nil {
		return benchResult{}, err
	}
	m, err := dialogue.NewManager(dialogue.ManagerOptions{Engines: []nadine.Engine{eng},
		History: dialogue.NewHistory(st, emb, dialogue.HistoryOptions{}), Profiles: st})
	if err != nil {
		return benchResult{}, err
	}
	m.SetUser(nadine.UserRef{ID: "bench-user", Name: "Robin"})
	inputs := []string{"Tell me about Geneva.", "What else is there to see?", "And what about the lake?", "Is it a good place to live?", "What do you like most there?"}
	r := benchResult{Engine: name, Turns: turns}
	var first, whole []time.Duration
	for i := 0; i < turns; i++ {
		if i > 0 && name != "offline" {
			time.Sleep(pause) // the user speaks; background work may run
		}
		var once sync.Once
		var firstAt time.Time
		start := time.Now()
		reply, err := m.Stream(ctx, nadine.Turn{Text: inputs[i%len(inputs)]}, func(e nadine.Event) {
			if e.Kind == nadine.EventSpeech {
				once.Do(func() { firstAt = time.Now() })
			}
		})
		if err != nil {
			return r, err
		}
		if reply.Fallback {
			return r, fmt.Errorf("turn %d fell back: %+v", i, reply.Trace.Snapshot().Failures)
		}
		whole = append(whole, time.Since(start))
		first = append(first, firstAt.Sub(start))
		d := reply.Trace.Snapshot()
		r.ModelCalls += float64(countChat(d.ModelCalls)) / float64(turns)
		r.CriticalPath += float64(d.CriticalPath) / float64(turns)
	}
	r.FirstSpeech, r.Reply = median(first), median(whole)
	return r, nil
}

// countChat counts chat-model calls (not embeddings).
func countChat(calls []nadine.ModelCall) int {
	n := 0
	for _, c := range calls {
		if c.Role != "embeddings" {
			n++
		}
	}
	return n
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

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
