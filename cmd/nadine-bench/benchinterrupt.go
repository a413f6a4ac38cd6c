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
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/nadine-robot/nadine/internal/syncbuf"

	"github.com/eclipse/paho.golang/paho"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/sqlite"
)

// The interruption bench (`nadine bench interrupt`): scripted visitors who
// talk over a real `nadine serve` (offline engine, interruptions in mode
// speech) at random points of her replies, backchannel, say her own words
// back as a microphone would, or make a sound and say nothing, against a
// text-to-speech stand-in that speaks at a voice's pace and reports each
// sentence said, or where a stop cut it. docs/interruptions.md has the
// figures.

// interruptCase is one utterance of the independent interruption sets
// (testdata/interruptions).
type interruptCase struct {
	ID         string `json:"id"`
	Language   string `json:"language"`
	Kind       string `json:"kind"`
	Heard      string `json:"heard"`
	ShouldStop bool   `json:"should_stop"`
}

// interruptReport is what the bench measured.
type interruptReport struct {
	Machine     map[string]string `json:"machine"`
	Rounds      int               `json:"rounds"`
	WPM         int               `json:"words_per_minute"`
	StopLatency []time.Duration   `json:"stop_latency_ns"` // interim transcript → stop message
	Interrupted int               `json:"interrupted"`     // real interruptions said
	Stopped     int               `json:"stopped"`         // of them, stopped
	NotStopped  []string          `json:"not_stopped,omitempty"`
	Truthful    int               `json:"history_truthful"`
	NotTruthful []string          `json:"history_wrong,omitempty"`
	Quiet       int               `json:"quiet_said"` // backchannels, echo and noise said while she spoke
	QuietStops  int               `json:"quiet_stopped"`
	QuietKinds  map[string]int    `json:"quiet_by_kind"`
	QuietWrong  []string          `json:"quiet_wrong,omitempty"` // kind: what stopped her
	False       int               `json:"false_interruptions"`
	Resumed     int               `json:"resumed"`
	Repeated    int               `json:"said_more_than_twice"`
}

// runInterruptBench runs `nadine bench interrupt`.
func runInterruptBench(ctx context.Context, args []string, e env) error {
	fs := flags("bench interrupt", e)
	rounds := fs.Int("rounds", 24, "replies the visitors talk over (each: three backchannels, echoes or noises, then a real interruption, a false one, or none)")
	wpm := fs.Int("wpm", 150, "the text-to-speech stand-in's pace, in words a minute")
	sets := fs.String("sets", "testdata/interruptions", "folder of the independent interruption sets (tuned.json, sealed.json), from the repository's root")
	seed := fs.Uint64("seed", 1, "seed of the visitors' random choices")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *rounds < 1 || *wpm < 30 {
		return usageError{"--rounds must be at least 1, --wpm at least 30"}
	}
	var cases []interruptCase
	for _, name := range []string{"tuned.json", "sealed.json"} {
		b, err := os.ReadFile(filepath.Join(*sets, name))
		if err != nil {
			return fmt.Errorf("bench interrupt: %w (run it from the repository's root, or give --sets)", err)
		}
		var set struct {
			Cases []interruptCase `json:"cases"`
		}
		if err := json.Unmarshal(b, &set); err != nil {
			return fmt.Errorf("bench interrupt: %s: %w", name, err)
		}
		cases = append(cases, set.Cases...)
	}
	dir, err := os.MkdirTemp("", "nadine-bench-interrupt-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if !*asJSON {
		fmt.Fprintf(e.stderr, "bench interrupt: %d replies at %d words a minute…\n", *rounds, *wpm)
	}
	r, err := benchInterrupt(ctx, dir, cases, *rounds, *wpm, *seed)
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(e.stdout).Encode(r)
	}
	return printInterruptBench(e.stdout, r)
}

// benchInterrupt runs the rounds against one child.
func benchInterrupt(ctx context.Context, dir string, cases []interruptCase, rounds, wpm int, seed uint64) (interruptReport, error) {
	r := interruptReport{Machine: machine(), Rounds: rounds, WPM: wpm, QuietKinds: map[string]int{}}
	if err := seedUser(ctx, dir); err != nil {
		return r, err
	}
	logs := &syncbuf.Buffer{}
	c, err := startChild(ctx, benchSetup{dir: dir, engine: "offline", modelURL: "http://127.0.0.1:1/v1"}, childOptions{turns: map[string]any{
		"interruptions": "speech", "interrupt_min_duration": "300ms", "false_interruption_timeout": "1s"}}, logs)
	if err != nil {
		return r, err
	}
	defer c.kill()
	tts, err := dialTTS(ctx, c.mqtt, wpm)
	if err != nil {
		return r, err
	}
	defer tts.close()
	if err := tts.publish(ctx, "nadine/graph/user_detected", map[string]any{"user_name": benchUserName, "user_id": benchUserID}); err != nil {
		return r, err
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var quiet, real []interruptCase
	for _, k := range cases {
		switch {
		case k.ShouldStop:
			real = append(real, k)
		case k.Kind != "echo": // echoes are made of what she says (below)
			quiet = append(quiet, k)
		}
	}
	var expect []string // the history each interrupted reply should have
	fail := func(err error) error {
		return fmt.Errorf("%w\nnadine serve said:\n%s", err, lastLines(logs.String(), 30))
	}
	for round := range rounds {
		turnID := fmt.Sprintf("round-%d", round)
		first, err := tts.ask(ctx, turnID, "Tell me about MIRALab")
		if err != nil {
			return r, fail(err)
		}
		// Three things said while she speaks that must not stop her.
		for range 3 {
			sleepCtx(ctx, time.Duration(200+rng.IntN(400))*time.Millisecond)
			kind, text := "echo", ""
			if rng.IntN(3) > 0 {
				k := quiet[rng.IntN(len(quiet))]
				kind, text = k.Kind, k.Heard
			} else {
				text = misheard(tts.current(turnID, first), rng)
			}
			if text == "" || tts.idle(turnID) {
				continue
			}
			r.Quiet++
			r.QuietKinds[kind]++
			tts.transcript(ctx, text, rng.IntN(2) == 0)
			if tts.waitStop(turnID, 400*time.Millisecond) {
				r.QuietStops++
				r.QuietWrong = append(r.QuietWrong, kind+": "+text)
				break
			}
		}
		switch {
		case tts.stopped(turnID):
			// A quiet utterance stopped her (counted): next round.
		case round%4 <= 1 && !tts.idle(turnID):
			k := real[rng.IntN(len(real))]
			r.Interrupted++
			sent := time.Now()
			tts.transcript(ctx, k.Heard, false)
			if !tts.waitStop(turnID, 2*time.Second) {
				r.NotStopped = append(r.NotStopped, fmt.Sprintf("%q (she had finished: %v)", k.Heard, tts.idle(turnID)))
				break
			}
			r.Stopped++
			r.StopLatency = append(r.StopLatency, tts.stopAt(turnID).Sub(sent))
			said := tts.saidOf(turnID)
			expect = append(expect, strings.TrimSpace(said+" "+dialogue.InterruptedMark))
			if _, err := tts.ask(ctx, turnID+"-next", k.Heard); err != nil {
				return r, fail(err)
			}
		case round%4 == 2 && !tts.idle(turnID):
			r.False++
			tts.publish(ctx, "nadine/stt/speech_started", map[string]any{})
			if !tts.waitStop(turnID, 2*time.Second) {
				break
			}
			if tts.waitResumed(turnID, 5*time.Second) {
				r.Resumed++
			}
		}
		if err := tts.waitIdle(ctx, 2*time.Minute); err != nil {
			return r, fail(err)
		}
		sleepCtx(ctx, 300*time.Millisecond)
	}
	r.Repeated = tts.repeated()
	if err := c.stopTerm(); err != nil {
		return r, fail(err)
	}
	have, err := storedReplies(ctx, dir)
	if err != nil {
		return r, err
	}
	for _, want := range expect {
		if have[want] {
			r.Truthful++
		} else {
			r.NotTruthful = append(r.NotTruthful, want)
		}
	}
	return r, nil
}

// storedReplies reads Nadine's replies kept in the bench user's open
// conversations.
func storedReplies(ctx context.Context, dir string) (map[string]bool, error) {
	st, err := sqlite.Open(ctx, filepath.Join(dir, "nadine.db"), sqlite.Options{})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	convs, err := st.OpenConversations(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, c := range convs {
		msgs, err := st.RecentMessages(ctx, c.UserID, c.ID, 0)
		if err != nil {
			return nil, err
		}
		for _, m := range msgs {
			if m.Role == nadine.RoleAssistant {
				out[m.Content] = true
			}
		}
	}
	return out, nil
}

// misheard is what a microphone hears of Nadine's own sentence: a few words,
// lower case, unpunctuated, sometimes one dropped.
func misheard(sentence string, rng *rand.Rand) string {
	words := strings.FieldsFunc(strings.ToLower(sentence), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' })
	if len(words) < 3 {
		return strings.Join(words, " ")
	}
	n := min(len(words), 4+rng.IntN(4))
	from := rng.IntN(len(words) - n + 1)
	part := append([]string(nil), words[from:from+n]...)
	if n > 4 && rng.IntN(2) == 0 {
		i := rng.IntN(n)
		part = append(part[:i], part[i+1:]...)
	}
	return strings.Join(part, " ")
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// ttsStandIn plays text-to-speech (wpm words a minute, reports, stops) and
// the visitors' speech-to-text.
type ttsStandIn struct {
	cli *paho.Client
	wpm int

	mu    sync.Mutex
	queue []speakMsgSeq
	turns map[string]*ttsTurn // by the turn id of what nadine says
	wake  chan struct{}
	done  chan struct{}
	said  map[string]int // turn id and sentence → times said (whole or cut)
}

// speakMsgSeq is a speak message with its seq.
type speakMsgSeq struct {
	speakMsg
	Seq int `json:"seq"`
}

// ttsTurn is what the stand-in did of one turn.
type ttsTurn struct {
	started  chan struct{} // closed at its first sentence
	current  string        // the sentence being said
	said     []string      // sentences said whole, then the cut one's words
	stop     time.Time
	stopCh   chan struct{}
	resumed  bool
	resumeCh chan struct{}
	final    bool
	cut      chan struct{} // closed when the sentence being said must stop
}

func dialTTS(ctx context.Context, addr string, wpm int) (*ttsStandIn, error) {
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("bench: dial broker: %w", err)
	}
	t := &ttsStandIn{wpm: wpm, turns: map[string]*ttsTurn{}, wake: make(chan struct{}, 1), done: make(chan struct{}),
		said: map[string]int{}}
	t.cli = paho.NewClient(paho.ClientConfig{Conn: conn,
		OnPublishReceived: []func(paho.PublishReceived) (bool, error){func(pr paho.PublishReceived) (bool, error) {
			t.received(pr.Packet.Topic, pr.Packet.Payload)
			return true, nil
		}}})
	if _, err := t.cli.Connect(ctx, &paho.Connect{ClientID: fmt.Sprintf("bench-tts-%d", time.Now().UnixNano()), CleanStart: true, KeepAlive: 30}); err != nil {
		return nil, fmt.Errorf("bench: connect: %w", err)
	}
	if _, err := t.cli.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{
		{Topic: "nadine/agent/control/speak", QoS: 1}, {Topic: "nadine/agent/control/stop", QoS: 1}}}); err != nil {
		return nil, fmt.Errorf("bench: subscribe: %w", err)
	}
	go t.speak()
	return t, nil
}

func (t *ttsStandIn) close() {
	close(t.done)
	_ = t.cli.Disconnect(&paho.Disconnect{})
}

func (t *ttsStandIn) publish(ctx context.Context, topic string, v any) error {
	b, _ := json.Marshal(v)
	_, err := t.cli.Publish(ctx, &paho.Publish{Topic: topic, QoS: 1, Payload: b})
	return err
}

// init makes a turn's channels.
func (t *ttsTurn) init() *ttsTurn {
	t.started, t.stopCh, t.resumeCh = make(chan struct{}), make(chan struct{}), make(chan struct{})
	return t
}

// turn returns the record of turn id (t.mu is held).
func (t *ttsStandIn) turn(id string) *ttsTurn {
	if tt := t.turns[id]; tt != nil {
		return tt
	}
	tt := (&ttsTurn{}).init()
	t.turns[id] = tt
	return tt
}

func (t *ttsStandIn) received(topic string, payload []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if strings.HasSuffix(topic, "/stop") {
		var s struct {
			TurnID string `json:"turn_id"`
		}
		if json.Unmarshal(payload, &s) != nil {
			return
		}
		tt := t.turn(s.TurnID)
		if tt.stop.IsZero() {
			tt.stop = time.Now()
			close(tt.stopCh)
		}
		if tt.cut != nil {
			close(tt.cut)
			tt.cut = nil
		}
		kept := t.queue[:0]
		for _, m := range t.queue {
			if m.TurnID != s.TurnID {
				kept = append(kept, m)
			}
		}
		t.queue = kept
		return
	}
	var m speakMsgSeq
	if json.Unmarshal(payload, &m) != nil {
		return
	}
	tt := t.turn(m.TurnID)
	if !tt.stop.IsZero() && !tt.resumed && m.Text != "" {
		tt.resumed = true
		close(tt.resumeCh)
	}
	t.queue = append(t.queue, m)
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// speak says the queued sentences one at a time.
func (t *ttsStandIn) speak() {
	for {
		t.mu.Lock()
		if len(t.queue) == 0 {
			t.mu.Unlock()
			select {
			case <-t.done:
				return
			case <-t.wake:
			}
			continue
		}
		m := t.queue[0]
		t.queue = t.queue[1:]
		tt := t.turn(m.TurnID)
		if m.Final {
			tt.final = true
			t.mu.Unlock()
			continue
		}
		if m.Text == "" || m.Filler {
			t.mu.Unlock()
			continue
		}
		select {
		case <-tt.started:
		default:
			close(tt.started)
			// As the example bridge: start_speak before a turn's first
			// sentence (nadine knows she speaks before any report).
			go t.publish(context.Background(), "nadine/agent/feedback/start_speak", map[string]any{"turn_id": m.TurnID})
		}
		tt.current = m.Text
		cut := make(chan struct{})
		tt.cut = cut
		t.said[m.TurnID+"\x00"+m.Text]++
		t.mu.Unlock()
		words := len(strings.Fields(m.Text))
		d := time.Duration(float64(words) / float64(t.wpm) * float64(time.Minute))
		start := time.Now()
		timer := time.NewTimer(d)
		report := map[string]any{"turn_id": m.TurnID, "seq": m.Seq}
		select {
		case <-timer.C:
			t.mu.Lock()
			tt.said = append(tt.said, m.Text)
			tt.cut, tt.current = nil, ""
			t.mu.Unlock()
		case <-cut:
			timer.Stop()
			n := min(words, int(time.Since(start).Minutes()*float64(t.wpm)))
			report["cut"], report["words"] = true, n
			t.mu.Lock()
			if n > 0 {
				tt.said = append(tt.said, strings.Join(strings.Fields(m.Text)[:n], " ")+"…")
			}
			tt.current = ""
			t.mu.Unlock()
		case <-t.done:
			timer.Stop()
			return
		}
		_ = t.publish(context.Background(), "nadine/agent/feedback/spoken", report)
	}
}

// ask says text as a final transcript of id and waits until Nadine starts
// saying her reply; it returns her first sentence.
func (t *ttsStandIn) ask(ctx context.Context, id, text string) (string, error) {
	if err := t.publish(ctx, "nadine/stt/transcript", map[string]any{"text": text, "final": true, "id": id, "language": "en"}); err != nil {
		return "", err
	}
	t.mu.Lock()
	tt := t.turn(id)
	t.mu.Unlock()
	select {
	case <-tt.started:
	case <-time.After(time.Minute):
		return "", errors.New("bench: nadine did not start speaking within a minute")
	case <-ctx.Done():
		return "", ctx.Err()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return tt.current, nil
}

// transcript says text as an interim (final false) or final transcript.
func (t *ttsStandIn) transcript(ctx context.Context, text string, final bool) {
	_ = t.publish(ctx, "nadine/stt/transcript", map[string]any{"text": text, "final": final, "language": "en"})
}

func (t *ttsStandIn) current(id, fallback string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c := t.turn(id).current; c != "" {
		return c
	}
	return fallback
}

// idle reports whether nothing of turn id is being said or queued.
func (t *ttsStandIn) idle(id string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.turn(id).current != "" {
		return false
	}
	for _, m := range t.queue {
		if m.TurnID == id && m.Text != "" {
			return false
		}
	}
	return true
}

func (t *ttsStandIn) waitStop(id string, d time.Duration) bool {
	t.mu.Lock()
	ch := t.turn(id).stopCh
	t.mu.Unlock()
	return closedWithin(ch, d)
}

// closedWithin reports whether ch is closed within d.
func closedWithin(ch <-chan struct{}, d time.Duration) bool {
	select {
	case <-ch:
		return true
	case <-time.After(d):
		return false
	}
}

func (t *ttsStandIn) stopped(id string) bool { return t.waitStop(id, 0) }

func (t *ttsStandIn) stopAt(id string) time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.turn(id).stop
}

func (t *ttsStandIn) waitResumed(id string, d time.Duration) bool {
	t.mu.Lock()
	ch := t.turn(id).resumeCh
	t.mu.Unlock()
	return closedWithin(ch, d)
}

// saidOf is what text-to-speech said of turn id, once the stop's cut was
// reported (it waits a little for it).
func (t *ttsStandIn) saidOf(id string) string {
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		t.mu.Lock()
		busy := t.turn(id).current != ""
		said := strings.Join(t.turn(id).said, " ")
		t.mu.Unlock()
		if !busy {
			return said
		}
		time.Sleep(10 * time.Millisecond)
	}
	return ""
}

// waitIdle waits until nothing is queued or being said.
func (t *ttsStandIn) waitIdle(ctx context.Context, d time.Duration) error {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		t.mu.Lock()
		busy := len(t.queue) > 0
		for _, tt := range t.turns {
			busy = busy || tt.current != ""
		}
		t.mu.Unlock()
		if !busy {
			return nil
		}
		sleepCtx(ctx, 50*time.Millisecond)
	}
	return errors.New("bench: text-to-speech still busy")
}

// repeated counts sentences said more than twice (a resume said once more
// is fine; more is a loop).
func (t *ttsStandIn) repeated() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, c := range t.said {
		if c > 2 {
			n++
		}
	}
	return n
}

func printInterruptBench(w io.Writer, r interruptReport) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "replies talked over\t%d at %d words a minute\n", r.Rounds, r.WPM)
	fmt.Fprintf(tw, "stop latency (interim → stop message)\tp50 %v, p95 %v, max %v (%d stops)\n",
		percentile(r.StopLatency, 50).Round(time.Millisecond/10), percentile(r.StopLatency, 95).Round(time.Millisecond/10),
		percentile(r.StopLatency, 100).Round(time.Millisecond/10), len(r.StopLatency))
	fmt.Fprintf(tw, "real interruptions stopped\t%d of %d\n", r.Stopped, r.Interrupted)
	fmt.Fprintf(tw, "history truthful\t%d of %d interrupted replies\n", r.Truthful, r.Stopped)
	fmt.Fprintf(tw, "backchannels, echoes, noises that stopped her\t%d of %d (%v)\n", r.QuietStops, r.Quiet, r.QuietKinds)
	fmt.Fprintf(tw, "false interruptions resumed\t%d of %d; sentences said more than twice: %d\n", r.Resumed, r.False, r.Repeated)
	for _, s := range r.NotStopped {
		fmt.Fprintf(tw, "  not stopped by\t%s\n", s)
	}
	for _, s := range r.QuietWrong {
		fmt.Fprintf(tw, "  stopped by\t%s\n", s)
	}
	for _, s := range r.NotTruthful {
		fmt.Fprintf(tw, "  not in history\t%s\n", s)
	}
	return tw.Flush()
}
