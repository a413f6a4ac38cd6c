package robot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/mqtt"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
)

// durable is nadine as serve wires it with an inbox: the bus keeps each
// transcript in the inbox before acknowledging it, the runtime takes them
// from there.
type durable struct {
	inbox   nadine.Inbox
	rt      *robot.Runtime
	bus     *mqtt.Bus
	updates <-chan robot.Update
	stop    func() // stops the runtime as SIGTERM does and waits for Run
}

func startDurable(t *testing.T, url string, inbox nadine.Inbox, opts robot.Options) *durable {
	t.Helper()
	return startDurableWith(t, url, inbox, opts, nil)
}

// startDurableWith is startDurable with the dialogue manager's options
// adjusted by edit (see offlineManager).
func startDurableWith(t *testing.T, url string, inbox nadine.Inbox, opts robot.Options, edit func(*dialogue.ManagerOptions, *sqlite.Store)) *durable {
	t.Helper()
	ctx := context.Background()
	_, m := offlineManager(t, edit)
	cctx, cancel := context.WithTimeout(ctx, mqtttest.Failsafe)
	defer cancel()
	bus, err := mqtt.Connect(cctx, mqtt.Options{URL: url, ClientID: "nadine-durable", Persist: inbox.Add,
		ReconnectMin: 10 * time.Millisecond, ReconnectMax: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	opts.Manager, opts.Body, opts.Inbox, opts.SpeakTimeout = m, bus, inbox, time.Minute
	rt, err := robot.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	updates, unsubscribe := rt.Subscribe(1024)
	runCtx, cancelRun := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- rt.Run(runCtx, bus.Inbound()) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancelRun()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
		})
	}
	t.Cleanup(func() {
		unsubscribe()
		stop()
		_ = bus.Close(context.Background())
	})
	return &durable{inbox: inbox, rt: rt, bus: bus, updates: updates, stop: stop}
}

// TestShutdownLeavesHeardInInbox: SIGTERM while transcripts wait finishes
// the turn in flight and leaves the waiting transcripts pending in the
// inbox for the next start.
func TestShutdownLeavesHeardInInbox(t *testing.T) {
	ctx := context.Background()
	b := mqtttest.StartBroker(t, "127.0.0.1:0")
	addr := mqtttest.HostPort(b.URL())
	inbox := openInbox(t)
	d := startDurable(t, b.URL(), inbox, robot.Options{})
	mqtttest.Eventually(t, "nadine connected", d.bus.Connected)
	release := make(chan struct{})
	held := make(chan struct{})
	var once sync.Once
	res := make(chan error, 1)
	go func() {
		_, err := d.rt.Submit(ctx, nadine.Turn{ID: "op", Text: "Hello"}, func(e nadine.Event) {
			if e.Kind == nadine.EventSpeech {
				once.Do(func() { close(held) })
				<-release
			}
		})
		res <- err
	}()
	<-held
	stt := mqtttest.NewPeer(t, addr)
	for i := 1; i <= 3; i++ {
		stt.Publish("nadine/stt/transcript", fmt.Appendf(nil, `{"text":"What time is it?","id":"w-%d"}`, i))
	}
	mqtttest.Eventually(t, "three transcripts kept", func() bool {
		p, err := inbox.Pending(ctx)
		return err == nil && len(p) == 3
	})
	stopped := make(chan struct{})
	go func() { d.stop(); close(stopped) }()
	close(release)
	if err := <-res; err != nil {
		t.Fatalf("the turn in flight: %v", err)
	}
	<-stopped
	p, err := inbox.Pending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range p {
		left = append(left, e.ID+":"+string(e.State))
	}
	if got, want := fmt.Sprint(left), "[w-1:pending w-2:pending w-3:pending]"; got != want {
		t.Errorf("left in the inbox: %s, want %s", got, want)
	}
}

// answered reads control's speech until n turns have ended and returns
// their ids in order.
func answered(ctl *control, n int) []string {
	var ids []string
	for len(ids) < n {
		turn := ctl.untilFinal()
		var last speech
		_ = json.Unmarshal([]byte(turn[len(turn)-1].payload), &last)
		ids = append(ids, last.TurnID)
	}
	return ids
}

// skipped waits for n expired or dropped updates and returns "id:reason".
func (d *durable) skipped(t *testing.T, n int) []string {
	t.Helper()
	var out []string
	timeout := time.After(mqtttest.Failsafe)
	for len(out) < n {
		select {
		case u := <-d.updates:
			if u.Kind == robot.UpdateExpired || u.Kind == robot.UpdateDropped {
				out = append(out, u.TurnID+":"+u.Reason)
			}
		case <-timeout:
			t.Fatalf("got %v, want %d skipped transcripts", out, n)
		}
	}
	return out
}

func openInbox(t *testing.T) nadine.Inbox {
	t.Helper()
	in, err := sqlite.OpenInboxes(context.Background(), filepath.Join(t.TempDir(), "inbox.db"), sqlite.InboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in.Inbox("nadine")
}

// TestInboxAcrossRestart starts nadine on an inbox a previous run left:
// pending transcripts are answered in arrival order, a turn taken but
// silent is answered, one that had spoken is not answered again
// (interrupted), a stale one expires, one of sounds only is dropped as
// noise; then new transcripts flow.
func TestInboxAcrossRestart(t *testing.T) {
	ctx := context.Background()
	inbox := openInbox(t)
	now := time.Now()
	left, err := inbox.Add(ctx, []nadine.Transcript{
		{ID: "p-1", Text: "What time is it?", Received: now},
		{ID: "p-2", Text: "Hello", Received: now},
		{ID: "p-3", Text: "What day is it?", Received: now},
		{ID: "p-old", Text: "Hello there", Received: now.Add(-time.Minute)},
		{ID: "p-snd", Text: "[BLANK_AUDIO]", Received: now},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := inbox.Mark(ctx, nadine.InboxSpoken, left[1].Seq); err != nil {
		t.Fatal(err)
	}
	if err := inbox.Mark(ctx, nadine.InboxTaken, left[2].Seq); err != nil {
		t.Fatal(err)
	}
	b := mqtttest.StartBroker(t, "127.0.0.1:0")
	addr := mqtttest.HostPort(b.URL())
	ctl := &control{t: t, peer: mqtttest.NewPeer(t, addr, "nadine/agent/control/speak")}
	d := startDurable(t, b.URL(), inbox, robot.Options{MaxAge: 10 * time.Second})
	if got, want := fmt.Sprint(answered(ctl, 2)), "[p-1 p-3]"; got != want {
		t.Errorf("answered after the restart: %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(d.skipped(t, 3)), "[p-2:interrupted p-old:expired p-snd:noise]"; got != want {
		t.Errorf("skipped: %s, want %s", got, want)
	}
	mqtttest.Eventually(t, "nadine connected", d.bus.Connected)
	stt := mqtttest.NewPeer(t, addr)
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"What time is it?","id":"n-1"}`))
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"What time is it?","id":"p-1"}`)) // answered before the restart
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"Goodbye","id":"n-2"}`))
	if got, want := fmt.Sprint(answered(ctl, 2)), "[n-1 n-2]"; got != want {
		t.Errorf("answered after: %s, want %s (p-1 once only)", got, want)
	}
	mqtttest.Eventually(t, "the inbox to be empty", func() bool {
		p, err := inbox.Pending(ctx)
		return err == nil && len(p) == 0
	})
}

// TestStaleAndQueueBound: while a turn runs, heard transcripts wait in a
// bounded queue (the oldest goes first); one whose own timestamp is older
// than MaxAge expires as it comes, pushing none out, instead of being
// answered late.
func TestStaleAndQueueBound(t *testing.T) {
	b := mqtttest.StartBroker(t, "127.0.0.1:0")
	addr := mqtttest.HostPort(b.URL())
	ctl := &control{t: t, peer: mqtttest.NewPeer(t, addr, "nadine/agent/control/speak")}
	d := startDurable(t, b.URL(), openInbox(t), robot.Options{MaxAge: 10 * time.Second, Queue: 2})
	mqtttest.Eventually(t, "nadine connected", d.bus.Connected)

	// An operator turn holds the runtime until released.
	release := make(chan struct{})
	var once sync.Once
	held := make(chan struct{})
	go func() {
		_, _ = d.rt.Submit(context.Background(), nadine.Turn{ID: "op", Text: "Hello"}, func(e nadine.Event) {
			if e.Kind == nadine.EventSpeech {
				once.Do(func() { close(held) })
				<-release
			}
		})
	}()
	<-held
	stt := mqtttest.NewPeer(t, addr)
	stale := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	for i := 1; i <= 4; i++ {
		stt.Publish("nadine/stt/transcript", fmt.Appendf(nil, `{"text":"What time is it?","id":"q-%d"}`, i))
	}
	if got, want := fmt.Sprint(d.skipped(t, 2)), "[q-1:queue_full q-2:queue_full]"; got != want {
		t.Errorf("dropped: %s, want %s", got, want)
	}
	stt.Publish("nadine/stt/transcript", fmt.Appendf(nil, `{"text":"Hello","id":"q-5","time":%q}`, stale))
	if got, want := fmt.Sprint(d.skipped(t, 1)), "[q-5:expired]"; got != want {
		t.Errorf("skipped: %s, want %s", got, want)
	}
	close(release)
	if got, want := fmt.Sprint(answered(ctl, 3)), "[op q-3 q-4]"; got != want {
		t.Errorf("answered: %s, want %s", got, want)
	}
}
