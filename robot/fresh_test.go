package robot_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
)

// holdEngine answers every turn at once ("You said ..."), except one
// whose text says "hold": that one says nothing until it is released or
// cancelled. started receives the id of each held turn as it starts.
type holdEngine struct {
	release chan struct{}
	started chan string
}

func newHoldEngine(t *testing.T) *holdEngine {
	h := &holdEngine{release: make(chan struct{}), started: make(chan string, 16)}
	t.Cleanup(func() { close(h.release) })
	return h
}

func (h *holdEngine) Name() string { return "hold" }

func (h *holdEngine) Respond(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
	if strings.Contains(req.Turn.Text, "hold") {
		h.started <- req.Turn.ID
		select {
		case <-h.release:
		case <-ctx.Done():
			return nadine.Reply{}, ctx.Err()
		}
	}
	text := "You said: " + req.Turn.Text
	req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: text, Language: req.Turn.Language})
	return nadine.Reply{Text: text, Language: req.Turn.Language}, nil
}

// withEngine makes e the dialogue manager's only engine.
func withEngine(e nadine.Engine) func(*dialogue.ManagerOptions, *sqlite.Store) {
	return func(o *dialogue.ManagerOptions, _ *sqlite.Store) { o.Engines = []nadine.Engine{e} }
}

// states returns "id:state" for ids, from the inbox's file.
func states(t *testing.T, path string, ids ...string) string {
	t.Helper()
	all, err := sqlite.InboxStates(context.Background(), path, "nadine")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, id := range ids {
		out = append(out, id+":"+string(all[id]))
	}
	return fmt.Sprint(out)
}

// openInboxFile is openInbox, with the path of its file.
func openInboxFile(t *testing.T) (nadine.Inbox, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "inbox.db")
	in, err := sqlite.OpenInboxes(context.Background(), path, sqlite.InboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in.Inbox("nadine"), path
}

// TestTranscriptsExpireWhileTheyWait: heard transcripts leave the queue as
// they expire, while the turn before them still runs, marked expired in
// the inbox; they used to wait for their turn to come, to be found too
// old only then.
func TestTranscriptsExpireWhileTheyWait(t *testing.T) {
	b := mqtttest.StartBroker(t, "127.0.0.1:0")
	addr := mqtttest.HostPort(b.URL())
	inbox, file := openInboxFile(t)
	eng := newHoldEngine(t)
	d := startDurableWith(t, b.URL(), inbox, robot.Options{MaxAge: 500 * time.Millisecond}, withEngine(eng))
	mqtttest.Eventually(t, "nadine connected", d.bus.Connected)
	ctl := &control{t: t, peer: mqtttest.NewPeer(t, addr, "nadine/agent/control/speak")}
	stt := mqtttest.NewPeer(t, addr)
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"hold on","id":"w-0"}`))
	<-eng.started
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"What time is it?","id":"w-1"}`))
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"Hello","id":"w-2"}`))
	// w-0's turn still runs: it is released only below.
	if got, want := fmt.Sprint(d.skipped(t, 2)), "[w-1:expired w-2:expired]"; got != want {
		t.Errorf("expired while waiting: %s, want %s", got, want)
	}
	mqtttest.Eventually(t, "w-1 and w-2 marked expired while w-0 runs", func() bool {
		return states(t, file, "w-0", "w-1", "w-2") == "[w-0:taken w-1:expired w-2:expired]"
	})
	eng.release <- struct{}{}
	if got, want := fmt.Sprint(answered(ctl, 1)), "[w-0]"; got != want {
		t.Errorf("answered: %s, want %s", got, want)
	}
}

// TestOverloadAnswersTheNewest: when transcripts come faster than Nadine
// answers (more than Options.Backlog wait), the newest is answered next:
// those waiting before it and the turn in flight that had said nothing
// are dropped as superseded, logged and marked; an operator's turn keeps
// its place and is answered; once Nadine has caught up, transcripts are
// answered in order again. Every transcript ends in a final state. They
// used to be answered oldest first, each up to MaxAge late.
func TestOverloadAnswersTheNewest(t *testing.T) {
	b := mqtttest.StartBroker(t, "127.0.0.1:0")
	addr := mqtttest.HostPort(b.URL())
	inbox, file := openInboxFile(t)
	eng := newHoldEngine(t)
	d := startDurableWith(t, b.URL(), inbox, robot.Options{Backlog: 2}, withEngine(eng))
	mqtttest.Eventually(t, "nadine connected", d.bus.Connected)
	ctl := &control{t: t, peer: mqtttest.NewPeer(t, addr, "nadine/agent/control/speak")}
	stt := mqtttest.NewPeer(t, addr)
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"hold on, tell me everything about Geneva","id":"o-1"}`))
	<-eng.started
	var wg sync.WaitGroup
	wg.Go(func() {
		if _, err := d.rt.Submit(context.Background(), nadine.Turn{ID: "op", Text: "Hello from the operator"}, nil); err != nil {
			t.Errorf("the operator's turn: %v", err)
		}
	})
	for i := 2; i <= 4; i++ {
		stt.Publish("nadine/stt/transcript", fmt.Appendf(nil, `{"text":"What time is it? (%d)","id":"o-%d"}`, i, i))
	}
	if got, want := fmt.Sprint(slices.Sorted(slices.Values(d.skipped(t, 3)))), "[o-1:superseded o-2:superseded o-3:superseded]"; got != want {
		t.Errorf("superseded: %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(slices.Sorted(slices.Values(answered(ctl, 2)))), "[o-4 op]"; got != want {
		t.Errorf("answered: %s, want %s", got, want)
	}
	wg.Wait()
	// Caught up: in order again.
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"Goodbye","id":"o-5"}`))
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"Thank you","id":"o-6"}`))
	if got, want := fmt.Sprint(answered(ctl, 2)), "[o-5 o-6]"; got != want {
		t.Errorf("answered after: %s, want %s", got, want)
	}
	mqtttest.Eventually(t, "no transcript left open", func() bool {
		p, err := inbox.Pending(context.Background())
		return err == nil && len(p) == 0
	})
	if got, want := states(t, file, "o-1", "o-2", "o-3", "o-4", "o-5", "o-6"),
		"[o-1:dropped o-2:dropped o-3:dropped o-4:answered o-5:answered o-6:answered]"; got != want {
		t.Errorf("inbox: %s, want %s", got, want)
	}
}
