package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/nadine-robot/nadine/internal/syncbuf"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/mqtt"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
)

// The bus bench (`nadine bench bus`): what a bad client does to a real
// `nadine serve` on its embedded broker, with the defaults. A burst of
// transcripts followed by a live one (fresh first), a subscriber that
// stops reading while Nadine answers (nobody waits on it), and messages of
// hundreds of megabytes (broker limits). docs/bus-limits.md has the
// figures.

// liveResult is what the burst followed by a live transcript showed.
type liveResult struct {
	Transcripts  int           `json:"transcripts"`
	PublishTime  time.Duration `json:"publish_ns"`
	PublishFails int           `json:"publish_fails"`
	LiveAfter    time.Duration `json:"live_after_ns"`       // the live transcript, sent this long after the burst's end
	LiveFirst    time.Duration `json:"live_first_speak_ns"` // to its first sentence
	LiveFinal    time.Duration `json:"live_final_ns"`       // to its final speak message
	DrainTime    time.Duration `json:"drain_ns"`            // from the burst's end until no transcript is open
	Answered     int           `json:"answered"`            // of the burst
	Expired      int           `json:"expired"`
	Dropped      int           `json:"dropped"`
	Superseded   int           `json:"superseded_log_lines"`
	Lost         int           `json:"lost"`
	NotKept      int           `json:"not_kept"`
	Twice        int           `json:"answered_twice"`
	LiveState    string        `json:"live_state"`
	// The expiry check: transcripts that expire while a turn runs, and
	// how long after their expiry each was marked expired (the worst).
	ExpiryChecked int           `json:"expiry_checked"`
	ExpiryMarked  int           `json:"expiry_marked"`
	ExpiryLag     time.Duration `json:"expiry_lag_ns"`
	MaxRSS        int64         `json:"max_rss_bytes"`
}

// stalledRow is one run of the stalled subscriber: turns answered with no
// stalled subscriber, then each with a new one.
type stalledRow struct {
	WriteTimeout  time.Duration   `json:"write_timeout_ns"`
	Baseline      []time.Duration `json:"baseline_first_speak_ns"`
	Stalled       []time.Duration `json:"stalled_first_speak_ns"`
	Ratio         float64         `json:"median_ratio"`
	Disconnected  int             `json:"stalled_disconnected"` // stalled subscribers the broker disconnected (its log)
	FillAccepted  int64           `json:"fill_bytes"`           // bytes published to fill each stalled subscriber's socket
	StalledFinals int             `json:"stalled_turns_answered"`
}

// oversizedResult is what messages of Size bytes did.
type oversizedResult struct {
	Size       int64           `json:"size_bytes"`
	Messages   []oversizedSend `json:"messages"`
	RSSBefore  int64           `json:"rss_before_bytes"`
	RSSAfter   int64           `json:"rss_after_bytes"`
	PeakRSS    int64           `json:"peak_rss_bytes"`
	AfterFirst time.Duration   `json:"after_first_speak_ns"` // a transcript after them
	Logged     int             `json:"refusals_logged"`
}

// oversizedSend is one oversized message.
type oversizedSend struct {
	Retained bool  `json:"retained"`
	Sent     int64 `json:"sent_bytes"` // written before the broker closed the connection
	Refused  bool  `json:"refused"`
	RSS      int64 `json:"rss_after_bytes"`
}

type busReport struct {
	Machine   map[string]string `json:"machine"`
	Engine    string            `json:"engine"`
	Live      *liveResult       `json:"burst_then_live,omitempty"`
	Stalled   []stalledRow      `json:"stalled,omitempty"`
	Oversized *oversizedResult  `json:"oversized,omitempty"`
}

// runBusBench runs `nadine bench bus`.
func runBusBench(ctx context.Context, args []string, e env) error {
	fs := flags("bench bus", e)
	burst := fs.Int("burst", 5000, "transcripts in the burst before the live one (0 skips it)")
	liveAfter := fs.Duration("live-after", 500*time.Millisecond, "the live transcript comes this long after the burst")
	stalledTurns := fs.Int("stalled-turns", 5, "turns with and without a stalled subscriber (0 skips them)")
	oversizedMB := fs.Int("oversized-mb", 200, "size of the oversized messages in MB (0 skips them)")
	engine := fs.String("engine", "react", "engine answering: react or graph (scripted models: 300 ms to the first token, 50 tokens/s)")
	asJSON := fs.Bool("json", false, "print JSON instead of tables")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *engine != "react" && *engine != "graph" {
		return usageError{"--engine must be react or graph"}
	}
	if *burst < 0 || *stalledTurns < 0 || *oversizedMB < 0 {
		return usageError{"--burst, --stalled-turns and --oversized-mb must not be negative"}
	}
	dir, err := os.MkdirTemp("", "nadine-bench-bus-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	progress := progressTo(e.stderr, *asJSON)
	srv, serper := startBenchServers(abuseSettings())
	defer srv.Close()
	defer serper.Close()
	base := benchSetup{modelURL: srv.URL(), serperURL: serper.URL, engine: *engine}
	report := busReport{Machine: machine(), Engine: *engine}
	if *burst > 0 {
		progress("bench bus: a burst of %d transcripts, then a live one %v later, engine %s…", *burst, *liveAfter, *engine)
		s := base
		s.dir = filepath.Join(dir, "burst")
		r, err := benchBurstLive(ctx, s, *burst, *liveAfter)
		if err != nil {
			return fmt.Errorf("bench bus burst: %w", err)
		}
		report.Live = &r
	}
	if *stalledTurns > 0 {
		for i, wt := range []time.Duration{0, time.Minute} {
			label := "the default write timeout"
			if wt > 0 {
				label = "write_timeout " + wt.String() + " (stalled for the whole turn)"
			}
			progress("bench bus: %d turns without, then with, a subscriber that stopped reading (%s)…", *stalledTurns, label)
			s := base
			s.dir = filepath.Join(dir, fmt.Sprintf("stalled-%d", i))
			r, err := benchStalled(ctx, s, *stalledTurns, wt)
			if err != nil {
				return fmt.Errorf("bench bus stalled: %w", err)
			}
			report.Stalled = append(report.Stalled, r)
		}
	}
	if *oversizedMB > 0 {
		progress("bench bus: messages of %d MB, retained or not…", *oversizedMB)
		s := base
		s.dir = filepath.Join(dir, "oversized")
		r, err := benchOversized(ctx, s, int64(*oversizedMB)<<20)
		if err != nil {
			return fmt.Errorf("bench bus oversized: %w", err)
		}
		report.Oversized = &r
	}
	if *asJSON {
		return json.NewEncoder(e.stdout).Encode(report)
	}
	return printBusBench(e.stdout, report)
}

// benchBurstLive measures a live transcript sent liveAfter into a flood of n,
// then how soon transcripts that expire during a turn leave the queue.
func benchBurstLive(ctx context.Context, s benchSetup, n int, liveAfter time.Duration) (liveResult, error) {
	r := liveResult{Transcripts: n, LiveAfter: liveAfter}
	if err := seedUser(ctx, s.dir); err != nil {
		return r, err
	}
	logs := &syncbuf.Buffer{}
	c, err := startChild(ctx, s, childOptions{}, logs)
	if err != nil {
		return r, err
	}
	defer c.kill()
	peer, err := dialPeer(ctx, c.mqtt)
	if err != nil {
		return r, err
	}
	defer peer.close()
	if err := peer.publish(ctx, "nadine/graph/user_detected", map[string]any{"user_name": benchUserName, "user_id": benchUserID}); err != nil {
		return r, err
	}
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
	burstEnd := time.Now()
	r.PublishTime, r.PublishFails = burstEnd.Sub(start), int(fails.Load())
	time.Sleep(liveAfter)
	w, err := peer.say(ctx, "nadine", "live", "Tell me about Geneva.")
	if err != nil {
		return r, err
	}
	if err := peer.wait(ctx, w, 2*time.Minute); err != nil {
		return r, fmt.Errorf("the live transcript: %w\nnadine serve said:\n%s", err, lastLines(logs.String(), 40))
	}
	got := peer.result(w)
	r.LiveFirst, r.LiveFinal = got.first.Sub(got.sent), got.finalAt.Sub(got.sent)
	at, err := drained(ctx, s.dir, n-r.PublishFails+1, 5*time.Minute)
	if err != nil {
		return r, err
	}
	r.DrainTime = at.Sub(burstEnd)

	// Expiry: a turn runs while two transcripts, stamped so, expire.
	const early = 700 * time.Millisecond // they expire this long after they are sent
	hold, err := peer.say(ctx, "nadine", "exp-hold", "Tell me about Geneva. (the turn the others wait behind)")
	if err != nil {
		return r, err
	}
	deadlines := map[string]time.Time{}
	for i := range 2 {
		id := fmt.Sprintf("exp-%d", i)
		stamp := time.Now().Add(-robot.DefaultMaxAge + early)
		if err := peer.publish(ctx, "nadine/stt/transcript", map[string]any{"text": "What time is it?", "language": "en", "id": id,
			"time": stamp.UTC().Format(time.RFC3339Nano)}); err != nil {
			return r, err
		}
		deadlines[id] = stamp.Add(robot.DefaultMaxAge)
	}
	if err := peer.wait(ctx, hold, 2*time.Minute); err != nil {
		return r, fmt.Errorf("the turn of the expiry check: %w", err)
	}
	recs, err := sqlite.InboxRecords(ctx, filepath.Join(s.dir, "inbox.db"), "nadine")
	if err != nil {
		return r, err
	}
	for id, d := range deadlines {
		r.ExpiryChecked++
		if rec := recs[id]; rec.State == nadine.InboxExpired {
			r.ExpiryMarked++
			r.ExpiryLag = max(r.ExpiryLag, rec.Updated.Sub(d))
		}
	}
	_, r.MaxRSS = procRSS(c.pid())
	if err := c.stopTerm(); err != nil {
		return r, err
	}
	states, err := inboxStates(ctx, s.dir)
	if err != nil {
		return r, err
	}
	r.LiveState = string(states["live"])
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
	r.Superseded = strings.Count(logs.String(), "superseded by a newer one")
	return r, nil
}

// benchStalled compares turns without and with a nadine/# subscriber that
// stopped reading (socket filled first), so nobody waits on a bad client.
func benchStalled(ctx context.Context, s benchSetup, turns int, writeTimeout time.Duration) (stalledRow, error) {
	r := stalledRow{WriteTimeout: writeTimeout}
	if r.WriteTimeout == 0 {
		r.WriteTimeout = mqtt.DefaultBrokerWriteTimeout // the broker's own when unset
	}
	if err := seedUser(ctx, s.dir); err != nil {
		return r, err
	}
	var o childOptions
	if writeTimeout > 0 {
		o.mqtt = map[string]any{"write_timeout": writeTimeout.String()}
	}
	logs := &syncbuf.Buffer{}
	c, err := startChild(ctx, s, o, logs)
	if err != nil {
		return r, err
	}
	defer c.kill()
	peer, err := dialPeer(ctx, c.mqtt)
	if err != nil {
		return r, err
	}
	defer peer.close()
	if err := peer.publish(ctx, "nadine/graph/user_detected", map[string]any{"user_name": benchUserName, "user_id": benchUserID}); err != nil {
		return r, err
	}
	turn := func(id string) (time.Duration, error) {
		w, err := peer.say(ctx, "nadine", id, "Tell me about Geneva.")
		if err != nil {
			return 0, err
		}
		if err := peer.wait(ctx, w, 2*time.Minute); err != nil {
			return 0, fmt.Errorf("turn %s: %w\nnadine serve said:\n%s", id, err, lastLines(logs.String(), 20))
		}
		got := peer.result(w)
		time.Sleep(300 * time.Millisecond) // the person listens
		return got.first.Sub(got.sent), nil
	}
	if _, err := turn("warm-up"); err != nil {
		return r, err
	}
	for i := range turns {
		d, err := turn(fmt.Sprintf("base-%d", i))
		if err != nil {
			return r, err
		}
		r.Baseline = append(r.Baseline, d)
	}
	// Each turn has a new stalled subscriber; none reads until the end
	// (the broker may disconnect them meanwhile).
	var stalled []net.Conn
	defer func() {
		for _, c := range stalled {
			c.Close()
		}
	}()
	for i := range turns {
		sc, err := rawSubscriber(ctx, c.mqtt, fmt.Sprintf("stalled-%d", i), "nadine/#")
		if err != nil {
			return r, err
		}
		stalled = append(stalled, sc)
		n, err := rawFlood(ctx, c.mqtt, "nadine/fill", 64<<10, 200) // 12.5 MB: more than the sockets hold, less than its queue
		r.FillAccepted = n
		if err != nil {
			return r, err
		}
		d, err := turn(fmt.Sprintf("stalled-%d", i))
		if err != nil {
			return r, err
		}
		r.Stalled = append(r.Stalled, d)
		r.StalledFinals++
	}
	disconnected := func() int {
		l := logs.String()
		return strings.Count(l, "client disconnected: it took no data") + strings.Count(l, "client disconnected: its outbound queue is full")
	}
	if writeTimeout == 0 {
		// The broker disconnects each within its write timeout once its
		// socket stopped taking data.
		for deadline := time.Now().Add(10 * time.Second); disconnected() < turns && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond)
		}
	}
	r.Disconnected = disconnected()
	if b := percentile(r.Baseline, 50); b > 0 {
		r.Ratio = float64(percentile(r.Stalled, 50)) / float64(b)
	}
	return r, nil
}

// benchOversized watches the child's memory through four oversized messages
// (three retained), then checks a transcript is still answered.
func benchOversized(ctx context.Context, s benchSetup, size int64) (oversizedResult, error) {
	r := oversizedResult{Size: size}
	if err := seedUser(ctx, s.dir); err != nil {
		return r, err
	}
	logs := &syncbuf.Buffer{}
	c, err := startChild(ctx, s, childOptions{}, logs)
	if err != nil {
		return r, err
	}
	defer c.kill()
	peer, err := dialPeer(ctx, c.mqtt)
	if err != nil {
		return r, err
	}
	defer peer.close()
	r.RSSBefore, _ = procRSS(c.pid())
	for i, retain := range []bool{true, true, false, true} {
		sent, refused, err := rawHuge(ctx, c.mqtt, fmt.Sprintf("huge-%d", i), fmt.Sprintf("nadine/huge/%d", i), size, retain)
		if err != nil {
			return r, err
		}
		rss, _ := procRSS(c.pid())
		r.Messages = append(r.Messages, oversizedSend{Retained: retain, Sent: sent, Refused: refused, RSS: rss})
	}
	w, err := peer.say(ctx, "nadine", "after-huge", "Tell me about Geneva.")
	if err != nil {
		return r, err
	}
	if err := peer.wait(ctx, w, 2*time.Minute); err != nil {
		return r, fmt.Errorf("the transcript after the oversized messages: %w\nnadine serve said:\n%s", err, lastLines(logs.String(), 20))
	}
	got := peer.result(w)
	r.AfterFirst = got.first.Sub(got.sent)
	r.RSSAfter, r.PeakRSS = procRSS(c.pid())
	r.Logged = strings.Count(logs.String(), "packet too large")
	return r, nil
}

// rawSubscriber connects an MQTT 3.1.1 client that subscribes to filter at
// QoS 1 with a small receive buffer, and then reads nothing.
func rawSubscriber(ctx context.Context, addr, id, filter string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4096)
	}
	connect := append([]byte{0x00, 0x04, 'M', 'Q', 'T', 'T', 0x04, 0x02, 0x00, 0x3c, 0x00, byte(len(id))}, id...)
	sub := append([]byte{0x00, 0x01, 0x00, byte(len(filter))}, filter...)
	sub = append(sub, 0x01)
	pkt := append([]byte{0x10, byte(len(connect))}, connect...)
	pkt = append(append(pkt, 0x82, byte(len(sub))), sub...)
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Write(pkt); err != nil {
		c.Close()
		return nil, err
	}
	if _, err := io.ReadFull(c, make([]byte, 4+5)); err != nil { // CONNACK, SUBACK
		c.Close()
		return nil, fmt.Errorf("subscriber %s: %w", id, err)
	}
	_ = c.SetDeadline(time.Time{})
	return c, nil
}

// rawFlood publishes n messages of size bytes on topic at QoS 0 from a new
// MQTT 3.1.1 connection and returns how many bytes it wrote.
func rawFlood(ctx context.Context, addr, topic string, size, n int) (int64, error) {
	c, err := rawSubscriber(ctx, addr, fmt.Sprintf("flood-%d", time.Now().UnixNano()), "bench/nothing")
	if err != nil {
		return 0, err
	}
	defer c.Close()
	pkt := publishHeader(0x30, topic, false, int64(size))
	pkt = append(pkt, make([]byte, size)...)
	_ = c.SetWriteDeadline(time.Now().Add(30 * time.Second))
	var sent int64
	for range n {
		k, err := c.Write(pkt)
		sent += int64(k)
		if err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// rawHuge writes a huge message 64 KiB at a time, never holding it, and
// reports how much went out and whether the broker closed before the end.
func rawHuge(ctx context.Context, addr, id, topic string, size int64, retain bool) (int64, bool, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return 0, false, err
	}
	defer c.Close()
	connect := append([]byte{0x00, 0x04, 'M', 'Q', 'T', 'T', 0x05, 0x02, 0x00, 0x3c, 0x00, 0x00, byte(len(id))}, id...)
	_ = c.SetDeadline(time.Now().Add(time.Minute))
	if _, err := c.Write(append([]byte{0x10, byte(len(connect))}, connect...)); err != nil {
		return 0, false, err
	}
	hdr := make([]byte, 2)
	if _, err := io.ReadFull(c, hdr); err != nil || hdr[0] != 0x20 {
		return 0, false, fmt.Errorf("connect %s: CONNACK % x: %v", id, hdr, err)
	}
	if _, err := io.ReadFull(c, make([]byte, hdr[1])); err != nil {
		return 0, false, err
	}
	first := byte(0x30)
	if retain {
		first |= 0x01
	}
	if _, err := c.Write(publishHeader(first, topic, true, size)); err != nil {
		return 0, true, nil
	}
	chunk := make([]byte, 64<<10)
	var sent int64
	for sent < size {
		k, err := c.Write(chunk[:min(int64(len(chunk)), size-sent)])
		sent += int64(k)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return sent, false, fmt.Errorf("publish %s: the broker neither read nor refused it: %w", id, err)
			}
			return sent, true, nil
		}
	}
	return sent, false, nil
}

// publishHeader is a PUBLISH packet's fixed and variable header (QoS 0;
// MQTT 5 with an empty property list when v5) for a payload of size bytes.
func publishHeader(first byte, topic string, v5 bool, size int64) []byte {
	vh := append([]byte{byte(len(topic) >> 8), byte(len(topic))}, topic...)
	if v5 {
		vh = append(vh, 0x00)
	}
	out := []byte{first}
	for l := int64(len(vh)) + size; ; {
		b := byte(l % 128)
		if l /= 128; l > 0 {
			out = append(out, b|0x80)
			continue
		}
		out = append(out, b)
		break
	}
	return append(out, vh...)
}

// printBusBench prints the bus bench's figures as tables.
func printBusBench(w io.Writer, r busReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	ms := func(d time.Duration) string { return fmt.Sprintf("%d ms", d.Milliseconds()) }
	if l := r.Live; l != nil {
		fmt.Fprintf(tw, "burst\tpublished in\tlive sent after\tlive: first / final speak\tdrained after\tanswered\texpired\tdropped (superseded logged)\tlost\tnot kept\tanswered twice\texpiry: marked / lag\tpeak RSS\n")
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s / %s\t%s\t%d\t%d\t%d (%d)\t%d\t%d\t%d\t%d of %d / %s\t%.1f MB\n", l.Transcripts, ms(l.PublishTime), ms(l.LiveAfter),
			ms(l.LiveFirst), ms(l.LiveFinal), ms(l.DrainTime), l.Answered, l.Expired, l.Dropped, l.Superseded, l.Lost, l.NotKept, l.Twice,
			l.ExpiryMarked, l.ExpiryChecked, fmt.Sprintf("%.1f ms", float64(l.ExpiryLag.Microseconds())/1000), mb(l.MaxRSS))
		fmt.Fprintln(tw)
	}
	if len(r.Stalled) > 0 {
		fmt.Fprintf(tw, "stalled subscriber\tturns\tfirst speak without: median (max)\twith: median (max)\tratio\tdisconnected\n")
		for _, s := range r.Stalled {
			fmt.Fprintf(tw, "write_timeout %v\t%d\t%s (%s)\t%s (%s)\t%.2f\t%d\n", s.WriteTimeout, len(s.Stalled), ms(percentile(s.Baseline, 50)), ms(percentile(s.Baseline, 100)),
				ms(percentile(s.Stalled, 50)), ms(percentile(s.Stalled, 100)), s.Ratio, s.Disconnected)
		}
		fmt.Fprintln(tw)
	}
	if o := r.Oversized; o != nil {
		fmt.Fprintf(tw, "oversized\tretained\tsent before refused\trefused\tRSS after\n")
		for i, m := range o.Messages {
			fmt.Fprintf(tw, "%d MB #%d\t%v\t%.1f MB\t%v\t%.1f MB\n", o.Size>>20, i+1, m.Retained, mb(m.Sent), m.Refused, mb(m.RSS))
		}
		fmt.Fprintf(tw, "RSS before %.1f MB, after %.1f MB, peak %.1f MB; %d refusals logged; a transcript after them: first speak %s\n",
			mb(o.RSSBefore), mb(o.RSSAfter), mb(o.PeakRSS), o.Logged, ms(o.AfterFirst))
	}
	return tw.Flush()
}
