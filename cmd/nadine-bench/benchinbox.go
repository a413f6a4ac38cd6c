package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/nadine-robot/nadine/internal/syncbuf"

	"go.yaml.in/yaml/v3"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/sqlite"
)

// The durability bench (`nadine bench inbox`): a burst on the embedded
// broker, kill -9 at random moments of a conversation, SIGTERM with
// transcripts pending. Each runs real `nadine serve` child processes on
// one data directory against the bench's scripted model server.

// burstResult is what the burst showed.
type burstResult struct {
	Broker       string        `json:"broker"`
	Transcripts  int           `json:"transcripts"`
	PublishTime  time.Duration `json:"publish_ns"`    // to publish them all (broker acknowledgments)
	PublishFails int           `json:"publish_fails"` // transcripts the broker did not acknowledge
	Perception   int           `json:"perception"`    // perception messages acknowledged during the burst
	PercFails    int           `json:"perception_fails"`
	DrainTime    time.Duration `json:"drain_ns"`             // from the burst's end to the queue drained
	AfterFirst   time.Duration `json:"after_first_speak_ns"` // a transcript sent once drained: to its first sentence
	AfterReply   time.Duration `json:"after_reply_ns"`       // and to its final speak
	Answered     int           `json:"answered"`
	Expired      int           `json:"expired"`
	Dropped      int           `json:"dropped"`
	Lost         int           `json:"lost"` // kept in the inbox but never finished
	NotKept      int           `json:"not_kept"`
	Twice        int           `json:"answered_twice"`
	MaxRSS       int64         `json:"max_rss_bytes"`
}

// killResult is what the kill -9 runs showed.
type killResult struct {
	Kills          int `json:"kills"`
	Published      int `json:"published"`
	Kept           int `json:"kept"` // acknowledged by nadine: in the inbox
	NotKept        int `json:"not_kept"`
	Answered       int `json:"answered"`
	Expired        int `json:"expired"`
	Dropped        int `json:"dropped"`
	Interrupted    int `json:"interrupted"`
	Lost           int `json:"lost"` // kept but never finished
	Spoken         int `json:"spoken"`
	MissingHistory int `json:"spoken_missing_from_history"`
	Twice          int `json:"answered_twice"`
	IntegrityFails int `json:"integrity_failures"`
	ExpiryLogs     int `json:"expiry_log_lines"`
	InterruptLogs  int `json:"interrupted_log_lines"`
}

// termResult is what SIGTERM with transcripts pending showed.
type termResult struct {
	Pending  int `json:"pending_at_sigterm"` // kept and not yet taken when SIGTERM came
	Left     int `json:"left_in_inbox"`      // still pending once the process stopped
	Answered int `json:"answered"`           // of all, after the restart
	Lost     int `json:"lost"`
	Twice    int `json:"answered_twice"`
}

type inboxReport struct {
	Machine map[string]string `json:"machine"`
	Engine  string            `json:"engine"`
	Burst   *burstResult      `json:"burst,omitempty"`
	Kills   *killResult       `json:"kills,omitempty"`
	Term    *termResult       `json:"sigterm,omitempty"`
}

// runInboxBench runs `nadine bench inbox`.
func runInboxBench(ctx context.Context, args []string, e env) error {
	fs := flags("bench inbox", e)
	burst := fs.Int("burst", 5000, "transcripts in the burst (0 skips it)")
	kills := fs.Int("kills", 20, "kill -9 at this many random moments of a conversation (0 skips it; needs Mosquitto)")
	pending := fs.Int("pending", 10, "transcripts pending when SIGTERM comes (0 skips it; needs Mosquitto)")
	broker := fs.String("broker", "embedded", "broker of the burst: embedded or mosquitto")
	engine := fs.String("engine", "react", "engine answering: react or graph (scripted models: 300 ms to the first token, 50 tokens/s)")
	asJSON := fs.Bool("json", false, "print JSON instead of tables")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *broker != "embedded" && *broker != "mosquitto" {
		return usageError{"--broker must be embedded or mosquitto"}
	}
	if *engine != "react" && *engine != "graph" {
		return usageError{"--engine must be react or graph"}
	}
	dir, err := os.MkdirTemp("", "nadine-bench-inbox-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	progress := progressTo(e.stderr, *asJSON)
	srv, serper := startBenchServers(abuseSettings())
	defer srv.Close()
	defer serper.Close()
	base := benchSetup{modelURL: srv.URL(), serperURL: serper.URL, engine: *engine}
	report := inboxReport{Machine: machine(), Engine: *engine}
	if *burst > 0 {
		progress("bench inbox: a burst of %d transcripts on the %s broker, engine %s…", *burst, *broker, *engine)
		s := base
		s.dir = filepath.Join(dir, "burst")
		r, err := benchBurst(ctx, s, *burst, *broker)
		if err != nil {
			return fmt.Errorf("bench inbox burst: %w", err)
		}
		report.Burst = &r
	}
	if *kills > 0 || *pending > 0 {
		if _, err := mosquittoPath(); err != nil {
			progress("bench inbox: %v; skipping the kill -9 and SIGTERM runs", err)
		} else {
			if *kills > 0 {
				progress("bench inbox: kill -9 at %d random moments…", *kills)
				s := base
				s.dir = filepath.Join(dir, "kills")
				r, err := benchKills(ctx, s, *kills)
				if err != nil {
					return fmt.Errorf("bench inbox kills: %w", err)
				}
				report.Kills = &r
			}
			if *pending > 0 {
				progress("bench inbox: SIGTERM with %d transcripts pending…", *pending)
				s := base
				s.dir = filepath.Join(dir, "term")
				r, err := benchTerm(ctx, s, *pending)
				if err != nil {
					return fmt.Errorf("bench inbox sigterm: %w", err)
				}
				report.Term = &r
			}
		}
	}
	if *asJSON {
		return json.NewEncoder(e.stdout).Encode(report)
	}
	return printInboxBench(e.stdout, report)
}

// child is one `nadine serve` process of the durability bench.
type child struct {
	*serveProcess
	base string // the monitor's URL
	mqtt string // host:port of the broker it uses
}

// abuseSettings are the scripted servers' latencies for the inbox and bus
// benches.
func abuseSettings() benchSettings {
	return benchSettings{TTFT: 300 * time.Millisecond, TokenRate: 50, EmbedLatency: 100 * time.Millisecond, ToolLatency: 300 * time.Millisecond}
}

// progressTo writes a bench's progress lines to w, unless quiet (JSON out).
func progressTo(w io.Writer, quiet bool) func(format string, args ...any) {
	return func(format string, args ...any) {
		if !quiet {
			fmt.Fprintf(w, format+"\n", args...)
		}
	}
}

// childOptions say how the child connects and what it may do.
type childOptions struct {
	brokerURL string         // an external broker; empty: the embedded one
	maxAge    time.Duration  // limits.transcript_max_age; 0: the default
	mqtt      map[string]any // more mqtt settings (the embedded broker's limits)
	turns     map[string]any // the turns block (interruptions)
}

// startChild gives the child a stable client id, so an external broker keeps
// its session across kills, and one s.dir, so store and inbox outlive them.
func startChild(ctx context.Context, s benchSetup, o childOptions, logs *syncbuf.Buffer) (*child, error) {
	if err := os.MkdirAll(s.dir, 0o750); err != nil {
		return nil, err
	}
	var c *child
	err := onFreePorts(func(mqttAddr, httpAddr string) error {
		cfg, err := benchConfigMap(s, mqttAddr, httpAddr)
		if err != nil {
			return err
		}
		m := map[string]any{"listen": mqttAddr, "prefix": "nadine", "client_id": "nadine-durable"}
		if o.brokerURL != "" {
			m["url"] = o.brokerURL
			mqttAddr = hostPort(o.brokerURL)
		}
		for k, v := range o.mqtt {
			m[k] = v
		}
		cfg["mqtt"] = m
		if o.maxAge > 0 {
			cfg["limits"] = map[string]any{"transcript_max_age": o.maxAge.String()}
		}
		if o.turns != nil {
			cfg["turns"] = o.turns
		}
		raw, err := yaml.Marshal(cfg)
		if err != nil {
			return err
		}
		p, err := startServeChild(s.dir, raw, logs)
		if err != nil {
			return err
		}
		c = &child{serveProcess: p, base: "http://" + httpAddr, mqtt: mqttAddr}
		if err := waitHealthy(ctx, c.base, p); err != nil {
			c.kill()
			return fmt.Errorf("%w\nnadine serve said:\n%s", err, logs.String())
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// stopTerm sends SIGTERM and waits for the child to stop (its exit status
// aside: the durability bench counts what was answered, not how it ended).
func (c *child) stopTerm() error { return c.stop(syscall.SIGTERM, time.Minute) }

// quiet waits until no speak message came for d (or timeout passes).
func quiet(p *benchPeer, spoken *atomic.Int64, d, timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	last, since := spoken.Load(), time.Now()
	for time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		if n := spoken.Load(); n != last {
			last, since = n, time.Now()
			continue
		}
		if time.Since(since) >= d {
			return
		}
	}
}

// finals returns, per turn id, how many final speak messages the peer saw.
func (p *benchPeer) finals() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]int{}
	for id, w := range p.turns {
		if w.finals > 0 {
			out[id] = w.finals
		}
	}
	return out
}

// watchSpeech counts every speak message the peer sees.
func watchSpeech(p *benchPeer) *atomic.Int64 {
	var n atomic.Int64
	p.onSpeak = func() { n.Add(1) }
	return &n
}

// inboxStates reads the states of a child's inbox (running or not).
func inboxStates(ctx context.Context, dir string) (map[string]nadine.InboxState, error) {
	return sqlite.InboxStates(ctx, filepath.Join(dir, "inbox.db"), "nadine")
}

// drained waits until the inbox holds at least kept transcripts and none
// of them is waiting or being answered, and returns when that was seen.
func drained(ctx context.Context, dir string, kept int, timeout time.Duration) (time.Time, error) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		states, err := inboxStates(ctx, dir)
		if err != nil {
			return time.Time{}, err
		}
		open := 0
		for _, st := range states {
			if !st.Done() {
				open++
			}
		}
		if open == 0 && len(states) >= kept {
			return time.Now(), nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return time.Time{}, fmt.Errorf("the inbox did not drain within %v", timeout)
}

// historyInputs returns every user message of the open conversations.
func historyInputs(ctx context.Context, dir string) (string, error) {
	st, err := sqlite.Open(ctx, filepath.Join(dir, "nadine.db"), sqlite.Options{})
	if err != nil {
		return "", err
	}
	defer st.Close()
	cs, err := st.OpenConversations(ctx)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, c := range cs {
		msgs, err := st.MessageRange(ctx, c.UserID, c.ID, 0, c.Count)
		if err != nil {
			return "", err
		}
		for _, m := range msgs {
			if m.Role == nadine.RoleUser {
				b.WriteString(m.Content)
				b.WriteByte('\n')
			}
		}
	}
	return b.String(), nil
}

// integrity checks both databases of a stopped child.
func integrity(ctx context.Context, dir string) error {
	return errors.Join(sqlite.IntegrityCheck(ctx, filepath.Join(dir, "nadine.db")),
		sqlite.IntegrityCheck(ctx, filepath.Join(dir, "inbox.db")))
}

// seedUser stores the bench's known user in a new data directory.
func seedUser(ctx context.Context, dir string) error {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "nadine.db"), sqlite.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	return st.SaveProfile(ctx, nadine.Profile{UserID: benchUserID, UserName: benchUserName})
}

// benchBurst floods one child with n transcripts beside perception, waits for
// the queue to drain (expired, dropped), then measures one more.
func benchBurst(ctx context.Context, s benchSetup, n int, broker string) (burstResult, error) {
	r := burstResult{Broker: broker, Transcripts: n}
	if err := seedUser(ctx, s.dir); err != nil {
		return r, err
	}
	var o childOptions
	if broker == "mosquitto" {
		m, err := startMosquitto(s.dir)
		if err != nil {
			return r, err
		}
		defer m.stop()
		o.brokerURL = "mqtt://" + m.addr
	}
	logs := &syncbuf.Buffer{}
	c, err := startChild(ctx, s, o, logs)
	if err != nil {
		return r, err
	}
	defer func() {
		if c != nil {
			c.kill()
		}
	}()
	peer, err := dialPeer(ctx, c.mqtt)
	if err != nil {
		return r, err
	}
	defer peer.close()
	if err := peer.publish(ctx, "nadine/graph/user_detected", map[string]any{"user_name": benchUserName, "user_id": benchUserID}); err != nil {
		return r, err
	}
	perception, err := dialPeer(ctx, c.mqtt)
	if err != nil {
		return r, err
	}
	defer perception.close()

	stopPerception := make(chan struct{})
	var perc, percFails atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stopPerception:
				return
			case <-time.After(10 * time.Millisecond):
			}
			pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := perception.publish(pctx, "nadine/user/emotion", map[string]any{"emotion": "happy"})
			cancel()
			if err != nil {
				percFails.Add(1)
			} else {
				perc.Add(1)
			}
		}
	})
	start := time.Now()
	var next, fails atomic.Int64
	var flood sync.WaitGroup
	for range 8 {
		flood.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
				_, err := peer.say(pctx, "nadine", fmt.Sprintf("burst-%d", i), fmt.Sprintf("Tell me about Geneva. (burst %d)", i))
				cancel()
				if err != nil {
					fails.Add(1)
				}
			}
		})
	}
	flood.Wait()
	r.PublishTime, r.PublishFails = time.Since(start), int(fails.Load())
	burstEnd := time.Now()
	// Drained: every transcript of the burst answered, expired or dropped
	// (the inbox says so; nadine's monitor stream may skip updates under
	// a burst).
	at, err := drained(ctx, s.dir, n-r.PublishFails, 5*time.Minute)
	if err != nil {
		close(stopPerception)
		wg.Wait()
		return r, err
	}
	r.DrainTime = at.Sub(burstEnd)
	close(stopPerception)
	wg.Wait()
	r.Perception, r.PercFails = int(perc.Load()), int(percFails.Load())

	w, err := peer.say(ctx, "nadine", "after-burst", "Tell me about Geneva.")
	if err != nil {
		return r, err
	}
	if err := peer.wait(ctx, w, 2*time.Minute); err != nil {
		return r, fmt.Errorf("the transcript after the burst: %w\nnadine serve said:\n%s", err, lastLines(logs.String(), 40))
	}
	got := peer.result(w)
	r.AfterFirst, r.AfterReply = got.first.Sub(got.sent), got.finalAt.Sub(got.sent)
	_, r.MaxRSS = procRSS(c.pid())
	if err := c.stopTerm(); err != nil {
		return r, err
	}
	c = nil
	states, err := inboxStates(ctx, s.dir)
	if err != nil {
		return r, err
	}
	for i := range n {
		switch states[fmt.Sprintf("burst-%d", i)] {
		case nadine.InboxAnswered:
			r.Answered++
		case nadine.InboxExpired:
			r.Expired++
		case nadine.InboxDropped:
			r.Dropped++
		case "":
			r.NotKept++
		default:
			r.Lost++
		}
	}
	for _, f := range peer.finals() {
		if f > 1 {
			r.Twice++
		}
	}
	return r, nil
}

// benchKills SIGKILLs the child at random moments of a conversation through
// Mosquitto, which keeps its session, and checks nothing acknowledged is lost.
func benchKills(ctx context.Context, s benchSetup, kills int) (killResult, error) {
	r := killResult{Kills: kills}
	if err := seedUser(ctx, s.dir); err != nil {
		return r, err
	}
	m, err := startMosquitto(s.dir)
	if err != nil {
		return r, err
	}
	defer m.stop()
	peer, err := dialPeer(ctx, m.addr)
	if err != nil {
		return r, err
	}
	defer peer.close()
	spoken := watchSpeech(peer)
	if err := peer.publish(ctx, "nadine/graph/user_detected", map[string]any{"user_name": benchUserName, "user_id": benchUserID}); err != nil {
		return r, err
	}
	stop := make(chan struct{})
	var published atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		// A conversation: the person speaks again once the reply is over
		// (or after 2.5 s of silence, when the robot is down or busy), after a
		// short pause.
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(300 * time.Millisecond):
			}
			w, err := peer.say(ctx, "nadine", fmt.Sprintf("kill-%d", i), fmt.Sprintf("Tell me about Geneva. (ref %d)", i))
			if err != nil {
				continue
			}
			published.Add(1)
			_ = peer.wait(ctx, w, 2500*time.Millisecond)
		}
	})
	logs := &syncbuf.Buffer{}
	o := childOptions{brokerURL: "mqtt://" + m.addr}
	for k := range kills {
		c, err := startChild(ctx, s, o, logs)
		if err != nil {
			close(stop)
			wg.Wait()
			return r, fmt.Errorf("start %d: %w", k+1, err)
		}
		time.Sleep(time.Duration(1000+rand.IntN(5000)) * time.Millisecond) // a random moment of the conversation
		c.kill()
		if err := integrity(ctx, s.dir); err != nil {
			r.IntegrityFails++
		}
	}
	close(stop)
	wg.Wait()
	c, err := startChild(ctx, s, o, logs)
	if err != nil {
		return r, err
	}
	quiet(peer, spoken, 5*time.Second, 5*time.Minute)
	if err := c.stopTerm(); err != nil {
		return r, err
	}
	if err := integrity(ctx, s.dir); err != nil {
		r.IntegrityFails++
	}
	r.Published = int(published.Load())
	states, err := inboxStates(ctx, s.dir)
	if err != nil {
		return r, err
	}
	history, err := historyInputs(ctx, s.dir)
	if err != nil {
		return r, err
	}
	finals := peer.finals()
	for i := range r.Published {
		id := fmt.Sprintf("kill-%d", i)
		st := states[id]
		if st != "" {
			r.Kept++
		}
		switch st {
		case nadine.InboxAnswered:
			r.Answered++
		case nadine.InboxExpired:
			r.Expired++
		case nadine.InboxDropped:
			r.Dropped++
		case nadine.InboxInterrupted:
			r.Interrupted++
		case "":
			r.NotKept++
		default:
			r.Lost++
		}
		if f := finals[id]; f > 0 {
			r.Spoken++
			if f > 1 {
				r.Twice++
			}
			if !strings.Contains(history, fmt.Sprintf("(ref %d)", i)) {
				r.MissingHistory++
			}
		}
	}
	r.ExpiryLogs = strings.Count(logs.String(), "transcript expired")
	r.InterruptLogs = strings.Count(logs.String(), "transcript interrupted by a restart")
	return r, nil
}

// benchTerm sends SIGTERM while transcripts wait, restarts, and counts.
func benchTerm(ctx context.Context, s benchSetup, pending int) (termResult, error) {
	var r termResult
	if err := seedUser(ctx, s.dir); err != nil {
		return r, err
	}
	m, err := startMosquitto(s.dir)
	if err != nil {
		return r, err
	}
	defer m.stop()
	peer, err := dialPeer(ctx, m.addr)
	if err != nil {
		return r, err
	}
	defer peer.close()
	spoken := watchSpeech(peer)
	logs := &syncbuf.Buffer{}
	// Transcripts must not expire while the bench restarts the child: this
	// run counts losses, not expiry.
	o := childOptions{brokerURL: "mqtt://" + m.addr, maxAge: 5 * time.Minute}
	c, err := startChild(ctx, s, o, logs)
	if err != nil {
		return r, err
	}
	total := pending + 1 // the turn in flight, and those pending
	for i := range total {
		if _, err := peer.say(ctx, "nadine", fmt.Sprintf("term-%d", i), fmt.Sprintf("Tell me about Geneva. (term %d)", i)); err != nil {
			c.kill()
			return r, err
		}
	}
	// Wait for the first turn to speak: the others are kept and waiting.
	for deadline := time.Now().Add(time.Minute); spoken.Load() == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	r.Pending = total - 1
	if err := c.stopTerm(); err != nil {
		return r, err
	}
	if p, err := inboxStates(ctx, s.dir); err == nil {
		for _, st := range p {
			if st == nadine.InboxPending {
				r.Left++
			}
		}
	}
	c, err = startChild(ctx, s, o, logs)
	if err != nil {
		return r, err
	}
	quiet(peer, spoken, 5*time.Second, 5*time.Minute)
	if err := c.stopTerm(); err != nil {
		return r, err
	}
	states, err := inboxStates(ctx, s.dir)
	if err != nil {
		return r, err
	}
	finals := peer.finals()
	for i := range total {
		id := fmt.Sprintf("term-%d", i)
		if states[id] == nadine.InboxAnswered && finals[id] > 0 {
			r.Answered++
		} else {
			r.Lost++
		}
		if finals[id] > 1 {
			r.Twice++
		}
	}
	return r, nil
}

// mosquittoProc is a Mosquitto broker the bench runs.
type mosquittoProc struct {
	cmd  *exec.Cmd
	addr string
	done chan struct{}
}

// mosquittoPath finds Debian's mosquitto.
func mosquittoPath() (string, error) {
	if p, err := exec.LookPath("mosquitto"); err == nil {
		return p, nil
	}
	if _, err := os.Stat("/usr/sbin/mosquitto"); err == nil {
		return "/usr/sbin/mosquitto", nil
	}
	return "", errors.New("mosquitto is not installed (Debian: apt-get install mosquitto)")
}

// startMosquitto runs Mosquitto on a free loopback port.
func startMosquitto(dir string) (*mosquittoProc, error) {
	bin, err := mosquittoPath()
	if err != nil {
		return nil, err
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	port := addr[strings.LastIndex(addr, ":")+1:]
	conf := filepath.Join(dir, "mosquitto.conf")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	cfg := fmt.Sprintf("listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\nlog_dest stderr\nlog_type error\n", port)
	if err := os.WriteFile(conf, []byte(cfg), 0o600); err != nil {
		return nil, err
	}
	m := &mosquittoProc{cmd: exec.Command(bin, "-c", conf), addr: addr, done: make(chan struct{})}
	if err := m.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start mosquitto: %w", err)
	}
	go func() { _ = m.cmd.Wait(); close(m.done) }()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", addr); err == nil {
			_ = c.Close()
			return m, nil
		}
	}
	m.stop()
	return nil, errors.New("mosquitto did not listen within 10 s")
}

func (m *mosquittoProc) stop() {
	_ = m.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-m.done:
	case <-time.After(10 * time.Second):
		_ = m.cmd.Process.Kill()
		<-m.done
	}
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// printInboxBench prints the durability figures as tables.
func printInboxBench(w io.Writer, r inboxReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	ms := func(d time.Duration) string { return fmt.Sprintf("%d ms", d.Milliseconds()) }
	if b := r.Burst; b != nil {
		fmt.Fprintf(tw, "burst\tbroker\tpublished in\tpublish failures\tperception acked (failed)\tdrained after\tnext transcript: first / final speak\tanswered\texpired\tdropped\tlost\tnot kept\tanswered twice\tpeak RSS\n")
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d (%d)\t%s\t%s / %s\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f MB\n", b.Transcripts, b.Broker, ms(b.PublishTime), b.PublishFails,
			b.Perception, b.PercFails, ms(b.DrainTime), ms(b.AfterFirst), ms(b.AfterReply), b.Answered, b.Expired, b.Dropped, b.Lost, b.NotKept, b.Twice, float64(b.MaxRSS)/1e6)
		fmt.Fprintln(tw)
	}
	if k := r.Kills; k != nil {
		fmt.Fprintf(tw, "kill -9\tpublished\tkept\tnot kept\tanswered\texpired (log lines)\tdropped\tinterrupted (log lines)\tlost\tspoken\tspoken missing from history\tanswered twice\tintegrity failures\n")
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%d (%d)\t%d\t%d (%d)\t%d\t%d\t%d\t%d\t%d\n", k.Kills, k.Published, k.Kept, k.NotKept, k.Answered, k.Expired, k.ExpiryLogs,
			k.Dropped, k.Interrupted, k.InterruptLogs, k.Lost, k.Spoken, k.MissingHistory, k.Twice, k.IntegrityFails)
		fmt.Fprintln(tw)
	}
	if t := r.Term; t != nil {
		fmt.Fprintf(tw, "SIGTERM\tpending\tleft in the inbox\tanswered after restart (of all)\tlost\tanswered twice\n")
		fmt.Fprintf(tw, "\t%d\t%d\t%d\t%d\t%d\n", t.Pending, t.Left, t.Answered, t.Lost, t.Twice)
	}
	return tw.Flush()
}
