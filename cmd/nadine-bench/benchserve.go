package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nadine-robot/nadine/internal/syncbuf"

	"go.yaml.in/yaml/v3"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
)

// benchKeyEnv holds the (fake) key of the bench's model and search servers.
const benchKeyEnv = "NADINE_BENCH_KEY"

// benchSetup is what a serve run talks to.
type benchSetup struct {
	modelURL, serperURL string
	dir                 string // a new data directory
	engine              string
	seedWiring          bool      // graph: the original sequential wiring (features.seed_wiring)
	raw                 bool      // react: no contextualizer (features.contextualize: false)
	traces              io.Writer // receives each turn's trace as a JSON line (optional)
	// retries keeps the default retries (fault bench); the latency bench sets
	// none, so a turn's model calls are its attempts.
	retries bool
	// interim is how long before the final an interim is published;
	// memories are the bench user's stored memories.
	interim       time.Duration
	interimStable bool
	memories      int
}

// servedTurn is one turn of a serve run, as the control layer and the
// trace saw it.
type servedTurn struct {
	Kind         string        `json:"kind"`
	FirstSpeak   time.Duration `json:"first_speak_ns"`
	LastSpeak    time.Duration `json:"last_speak_ns"`
	Filler       time.Duration `json:"filler_ns,omitempty"`
	Total        time.Duration `json:"total_ns"` // transcript to the final speak message
	ModelCalls   int           `json:"model_calls"`
	CriticalPath int           `json:"critical_path"`
	External     time.Duration `json:"external_ns"`     // time inside model and tool calls (their union)
	Traced       time.Duration `json:"traced_ns"`       // the turn in nadine: from taking the transcript to the reply (the trace)
	Early        string        `json:"early,omitempty"` // its early turn on an interim transcript: kept, discarded or none
	// Kept and Discarded count its speculative model calls by verdict.
	Kept      int `json:"speculations_kept"`
	Discarded int `json:"speculations_discarded"`
}

// servedRun is one conversation through `nadine serve`.
type servedRun struct {
	Turns  []servedTurn  `json:"turns"`
	RSS    int64         `json:"rss_bytes"`         // after the conversation
	MaxRSS int64         `json:"max_rss_bytes"`     // peak
	Twice  int           `json:"answered_twice"`    // turns answered more than once
	Seeded time.Duration `json:"seed_ns,omitempty"` // writing the user's memories (benchSetup.memories)
}

// benchConfig gives every role its own profile named for the role, so the
// scripted server tells them apart.
func benchConfig(s benchSetup, mqttAddr, httpAddr string) ([]byte, error) {
	d, err := askDefaults(context.Background())
	if err != nil {
		return nil, err
	}
	profiles := map[string]any{}
	roles := map[string]string{}
	for _, r := range d.Roles {
		p := map[string]any{"base_url": s.modelURL, "model": r, "api_key_env": benchKeyEnv}
		if !s.retries {
			p["max_retries"] = 0
		}
		profiles[r] = p
		roles[r] = r
	}
	cfg := map[string]any{
		"engine":     s.engine,
		"data_dir":   s.dir,
		"language":   "en",
		"models":     map[string]any{"profiles": profiles, "roles": roles},
		"embeddings": map[string]any{"provider": "openai", "dimensions": benchDimensions},
		"features":   map[string]any{"seed_wiring": s.seedWiring, "contextualize": !s.raw},
		"tools":      map[string]any{"serper_api_key_env": benchKeyEnv, "serper_url": s.serperURL},
		"mqtt":       map[string]any{"listen": mqttAddr, "prefix": "nadine"},
		"http":       map[string]any{"addr": httpAddr},
		"log":        map[string]any{"level": "warn"},
	}
	return yaml.Marshal(cfg)
}

// onFreePorts retries start on new addresses (twice at most) when another
// process took a port between freeAddr and the child's start.
func onFreePorts(start func(mqttAddr, httpAddr string) error) error {
	for attempt := 1; ; attempt++ {
		mqttAddr, err := freeAddr()
		if err != nil {
			return err
		}
		httpAddr, err := freeAddr()
		if err != nil {
			return err
		}
		err = start(mqttAddr, httpAddr)
		if err == nil || attempt == 3 || !strings.Contains(err.Error(), "address already in use") {
			return err
		}
	}
}

// freeAddr returns a loopback address with a free port.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// servedChild is a running `nadine serve` child with the bench's peer on
// its broker and a watch on its monitor's traces.
type servedChild struct {
	s      benchSetup
	proc   *serveProcess
	traces *traceWatch
	stopTr func()
	peer   *benchPeer
	seeded time.Duration // writing the user's memories
}

// startServed starts `nadine serve` on a new data directory that knows one
// user, and puts that user in front of the robot.
func startServed(ctx context.Context, s benchSetup) (*servedChild, error) {
	if err := os.MkdirAll(s.dir, 0o750); err != nil {
		return nil, err
	}
	// The known user.
	st, err := sqlite.Open(ctx, filepath.Join(s.dir, "nadine.db"), sqlite.Options{})
	if err != nil {
		return nil, err
	}
	err = st.SaveProfile(ctx, nadine.Profile{UserID: benchUserID, UserName: benchUserName, Hobbies: []string{"sailing"}})
	var seeded time.Duration
	if err == nil && s.memories > 0 {
		seeded, err = seedMemories(ctx, st, s.memories)
	}
	st.Close()
	if err != nil {
		return nil, err
	}
	var c *servedChild
	var mqttAddr, base string
	err = onFreePorts(func(m, h string) error {
		cfg, err := benchConfig(s, m, h)
		if err != nil {
			return err
		}
		proc, err := startServeChild(s.dir, cfg, &syncbuf.Buffer{})
		if err != nil {
			return err
		}
		c, mqttAddr, base = &servedChild{s: s, proc: proc, stopTr: func() {}, seeded: seeded}, m, "http://"+h
		if err := waitHealthy(ctx, base, proc); err != nil {
			return c.fail(err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if c.traces, c.stopTr, err = watchTraces(ctx, base); err != nil {
		return nil, c.fail(err)
	}
	if c.peer, err = dialPeer(ctx, mqttAddr); err != nil {
		return nil, c.fail(err)
	}
	if err := c.peer.publish(ctx, "nadine/graph/user_detected", map[string]any{"user_name": benchUserName, "user_id": benchUserID, "confidence": 0.93}); err != nil {
		return nil, c.fail(err)
	}
	time.Sleep(200 * time.Millisecond) // perception comes before the first words
	return c, nil
}

// fail kills the child and returns err with what it logged.
func (c *servedChild) fail(err error) error {
	c.release()
	c.proc.kill()
	return fmt.Errorf("%w\nnadine serve said:\n%s", err, c.proc.logs.String())
}

// release closes the peer and the trace watch.
func (c *servedChild) release() {
	if c.peer != nil {
		c.peer.close()
		c.peer = nil
	}
	c.stopTr()
}

// turn says text as transcript id and waits for the reply's final speak
// message and the turn's trace.
func (c *servedChild) turn(ctx context.Context, id, text string) (turnWatch, nadine.TraceData, error) {
	w, err := c.peer.say(ctx, "nadine", id, text)
	if err != nil {
		return turnWatch{}, nadine.TraceData{}, err
	}
	if err := c.peer.wait(ctx, w, 2*time.Minute); err != nil {
		return turnWatch{}, nadine.TraceData{}, err
	}
	got := c.peer.result(w)
	tr, err := c.traces.wait(ctx, id, 10*time.Second)
	return got, tr, err
}

// stop measures the child's memory, counts the turns answered twice and
// stops it with SIGINT.
func (c *servedChild) stop() (rss, peak int64, twice int, err error) {
	rss, peak = procRSS(c.proc.pid())
	twice, _ = c.peer.duplicates()
	c.release()
	return rss, peak, twice, c.proc.stop(syscall.SIGINT, 30*time.Second)
}

// runServed holds the bench conversation with a new served child over MQTT:
// n turns, pause apart.
func runServed(ctx context.Context, s benchSetup, n int, pause time.Duration) (servedRun, error) {
	var run servedRun
	c, err := startServed(ctx, s)
	if err != nil {
		return run, err
	}
	for i := range n {
		text, kind := benchTurn(i)
		id := fmt.Sprintf("bench-%s-%d", s.engine, i)
		if s.interim > 0 {
			if err := c.sayInterim(ctx, text, s.interim, s.interimStable); err != nil {
				return run, c.fail(fmt.Errorf("turn %d (%q), interim transcript: %w", i, text, err))
			}
		}
		got, tr, err := c.turn(ctx, id, text)
		if err != nil {
			return run, c.fail(fmt.Errorf("turn %d (%q): %w", i, text, err))
		}
		t := servedTurn{Kind: kind, Total: got.finalAt.Sub(got.sent)}
		if !got.first.IsZero() {
			t.FirstSpeak, t.LastSpeak = got.first.Sub(got.sent), got.last.Sub(got.sent)
		}
		if !got.filler.IsZero() {
			t.Filler = got.filler.Sub(got.sent)
		}
		if tr.Engine != s.engine {
			return run, c.fail(fmt.Errorf("turn %d was answered by %s, not %s: %v", i, tr.Engine, s.engine, tr.Failures))
		}
		t.ModelCalls, t.CriticalPath, t.External, t.Traced = chatCalls(tr.ModelCalls), tr.CriticalPath, externalTime(tr), tr.Duration
		t.Early = earlyOf(tr)
		t.Kept, t.Discarded = speculationsOf(tr)
		if kind == turnPlain && foundMemory(tr) {
			t.Kind = turnPlainMemory
		}
		if s.traces != nil {
			if err := json.NewEncoder(s.traces).Encode(map[string]any{"engine": s.engine, "seed_wiring": s.seedWiring, "contextualize": !s.raw, "kind": kind, "trace": tr}); err != nil {
				return run, c.fail(err)
			}
		}
		run.Turns = append(run.Turns, t)
		if i < n-1 {
			time.Sleep(pause) // the person listens, then answers
		}
	}
	run.Seeded = c.seeded
	run.RSS, run.MaxRSS, run.Twice, err = c.stop()
	return run, err
}

// speculationsOf counts a turn's speculative model calls (not its early
// turns) kept and discarded.
func speculationsOf(tr nadine.TraceData) (kept, discarded int) {
	for _, sp := range tr.Speculations {
		switch {
		case sp.Kind == nadine.SpeculateTurn:
		case sp.Kept:
			kept++
		default:
			discarded++
		}
	}
	return kept, discarded
}

// foundMemory reports whether a turn's memory search found a memory of
// the person.
func foundMemory(tr nadine.TraceData) bool {
	for _, r := range tr.Retrievals {
		if r.Kind != "knowledge" && len(r.Results) > 0 {
			return true
		}
	}
	return false
}

// waitHealthy polls /api/health until the child answers on a port its own
// banner names.
func waitHealthy(ctx context.Context, base string, p *serveProcess) error {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if done, err := p.exited(); done {
			return fmt.Errorf("bench: nadine serve exited: %v", err)
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/health", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			// The port is this child's once its banner names it: a port
			// found free may be taken meanwhile by another child, whose
			// monitor would answer for this one.
			if resp.StatusCode == http.StatusOK && strings.Contains(p.logs.String(), "Monitor: "+base+"\n") {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("bench: waiting for nadine serve on %s: %w", base, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	return errors.New("bench: nadine serve did not become healthy within a minute")
}

// traceWatch collects the traces of finished turns from the monitor's
// event stream.
type traceWatch struct {
	mu     sync.Mutex
	got    map[string]nadine.TraceData
	signal chan struct{}
}

func watchTraces(ctx context.Context, base string) (*traceWatch, func(), error) {
	ctx, cancel := context.WithCancel(ctx)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		return nil, nil, fmt.Errorf("bench: event stream: %w", err)
	}
	tw := &traceWatch{got: map[string]nadine.TraceData{}, signal: make(chan struct{}, 1)}
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
		event := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: ") && event == "turn":
				var u struct {
					robot.Update
					Reply *struct {
						Trace *nadine.TraceData `json:"trace"`
					} `json:"reply"`
				}
				if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &u) == nil && u.Reply != nil && u.Reply.Trace != nil {
					tw.mu.Lock()
					tw.got[u.TurnID] = *u.Reply.Trace
					tw.mu.Unlock()
					select {
					case tw.signal <- struct{}{}:
					default:
					}
				}
			}
		}
	}()
	return tw, cancel, nil
}

func (tw *traceWatch) wait(ctx context.Context, id string, timeout time.Duration) (nadine.TraceData, error) {
	deadline := time.After(timeout)
	for {
		tw.mu.Lock()
		d, ok := tw.got[id]
		tw.mu.Unlock()
		if ok {
			return d, nil
		}
		select {
		case <-tw.signal:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			return d, fmt.Errorf("bench: no trace for turn %s on the event stream", id)
		case <-ctx.Done():
			return d, ctx.Err()
		}
	}
}

// chatCalls counts chat-model calls (not embeddings).
func chatCalls(calls []nadine.ModelCall) int {
	n := 0
	for _, c := range calls {
		if c.Role != "embeddings" {
			n++
		}
	}
	return n
}

// externalTime is the time a turn spent waiting on model and tool calls:
// the union of their intervals within the turn (a call that outlives the
// turn, work deferred after the reply, is no wait of the turn's).
func externalTime(d nadine.TraceData) time.Duration {
	type span struct{ a, b time.Time }
	var spans []span
	end := d.Start.Add(d.Duration)
	add := func(a time.Time, n time.Duration) {
		b := a.Add(n)
		if !d.Start.IsZero() && d.Duration > 0 {
			if a.Before(d.Start) {
				a = d.Start
			}
			if b.After(end) {
				b = end
			}
		}
		if b.After(a) {
			spans = append(spans, span{a, b})
		}
	}
	for _, c := range d.ModelCalls {
		add(c.Start, c.Latency)
	}
	for _, c := range d.ToolCalls {
		add(c.Start, c.Duration)
	}
	if len(spans) == 0 {
		return 0
	}
	for i := 1; i < len(spans); i++ { // insertion sort: a turn has few calls
		for j := i; j > 0 && spans[j].a.Before(spans[j-1].a); j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
	var total time.Duration
	cur := spans[0]
	for _, s := range spans[1:] {
		if s.a.After(cur.b) {
			total += cur.b.Sub(cur.a)
			cur = s
			continue
		}
		if s.b.After(cur.b) {
			cur.b = s.b
		}
	}
	return total + cur.b.Sub(cur.a)
}

// procRSS reads a process's resident set size and its peak, in bytes.
func procRSS(pid int) (rss, peak int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		v, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = v << 10
		case "VmHWM:":
			peak = v << 10
		}
	}
	return rss, peak
}
