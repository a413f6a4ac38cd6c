package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/syncbuf"

	"go.yaml.in/yaml/v3"

	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/internal/mqtttest"
)

// killConfig is a react robot whose silence filler comes after 300 ms, on
// data directory dir, talking to the scripted model at modelURL and to the
// broker at brokerURL, with the model calls' timeout and the turn's ("": the
// default); transcripts stay answerable for a minute across the restart.
func killConfig(dir, modelURL, brokerURL, httpAddr, timeout, turnTimeout string) ([]byte, error) {
	d, err := askDefaults(context.Background())
	if err != nil {
		return nil, err
	}
	profiles, roles := map[string]any{}, map[string]string{}
	for _, r := range d.Roles {
		profiles[r] = map[string]any{"base_url": modelURL, "model": r, "api_key_env": benchKeyEnv, "max_retries": 0, "timeout": timeout}
		roles[r] = r
	}
	limits := map[string]any{"first_speech": "300ms", "transcript_max_age": "1m"}
	if turnTimeout != "" {
		limits["turn_timeout"] = turnTimeout
	}
	return yaml.Marshal(map[string]any{"engine": "react", "data_dir": filepath.Join(dir, "data"), "language": "en",
		"models": map[string]any{"profiles": profiles, "roles": roles}, "embeddings": map[string]any{"provider": "openai", "dimensions": 64},
		"limits": limits,
		"mqtt":   map[string]any{"url": brokerURL, "prefix": "nadine"}, "http": map[string]any{"addr": httpAddr}})
}

// startFillerChild starts `nadine serve` on dir (a new or a killed one's),
// on the test's broker at brokerURL.
func startFillerChild(t *testing.T, ctx context.Context, dir, modelURL, brokerURL string) *serveProcess {
	t.Helper()
	return startKillChild(t, ctx, dir, modelURL, brokerURL, "30s", "")
}

// startKillChild is startFillerChild with the model calls' and the turn's
// timeout (killConfig).
func startKillChild(t *testing.T, ctx context.Context, dir, modelURL, brokerURL, timeout, turnTimeout string) *serveProcess {
	t.Helper()
	var proc *serveProcess
	err := onFreePorts(func(_, h string) error {
		cfg, err := killConfig(dir, modelURL, brokerURL, h, timeout, turnTimeout)
		if err != nil {
			return err
		}
		p, err := startServeChild(dir, cfg, &syncbuf.Buffer{})
		if err != nil {
			return err
		}
		if err := waitHealthy(ctx, "http://"+h, p); err != nil {
			p.kill()
			return fmt.Errorf("%w\n%s", err, p.logs.String())
		}
		proc = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proc.kill)
	return proc
}

// TestKillAfterAFillerIsAnswered: the transcript's turn says only the
// silence filler (the model hangs) when the process is killed (kill -9);
// restarted on the same data directory, nadine answers the transcript. The
// filler used to mark the transcript spoken in the inbox, so the restart
// marked it interrupted and the visitor never got an answer (3 of 3 kills
// in the probe).
func TestKillAfterAFillerIsAnswered(t *testing.T) {
	if testing.Short() {
		t.Skip("starts nadine serve as a child process, twice")
	}
	t.Parallel() // its own children, ports and data directory; it checks no timing
	const reply = "Geneva lies on its lake. It is a lovely city."
	srv := llmtest.New(t, llmtest.WithAPIKey("bench"))
	// The first life's agent call hangs; the second life's answers.
	srv.On(llmtest.MatchModel("react_agent")).Once().Hang()
	srv.On(llmtest.MatchModel("react_agent")).Reply("```json\n" + orderedFinal(reply, "information request") + "\n```")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	// The broker outlives both lives, and the peer (speech-to-text and
	// text-to-speech) listens throughout: it hears what the restart says
	// however soon it says it.
	broker := mqtttest.StartBroker(t, "127.0.0.1:0")
	peer, err := dialPeer(ctx, mqtttest.HostPort(broker.URL()))
	if err != nil {
		t.Fatal(err)
	}
	defer peer.close()

	first := startFillerChild(t, ctx, dir, srv.URL(), broker.URL())
	w, err := peer.say(ctx, "nadine", "kill-after-filler", "Tell me about Geneva.")
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for peer.result(w).filler.IsZero() {
		if time.Now().After(deadline) {
			t.Fatalf("no filler within 30 s of the transcript\n%s", first.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got := peer.result(w); got.sentences != 0 || got.finals != 0 {
		t.Fatalf("the turn said %q before the kill, want only the filler", got.texts)
	}
	first.kill() // SIGKILL: no shutdown, no inbox write after the filler
	w2 := peer.watch("nadine", "kill-after-filler")

	second := startFillerChild(t, ctx, dir, srv.URL(), broker.URL())
	if err := peer.wait(ctx, w2, time.Minute); err != nil {
		t.Fatalf("the transcript was not answered after the restart: %v\n%s", err, second.logs.String())
	}
	got := peer.result(w2)
	texts := got.texts
	if !got.filler.IsZero() && len(texts) > 0 {
		// A restart slower than first_speech says the silence filler
		// again, before the reply: that is the filler rule, not a repeat.
		texts = texts[1:]
	}
	if said := strings.Join(texts, " "); said != reply || got.finals != 1 {
		t.Errorf("after the restart the turn said %q (%d final markers), want %q once", said, got.finals, reply)
	}
	if logs := second.logs.String(); strings.Contains(logs, "interrupted by a restart") {
		t.Errorf("the restart called the transcript interrupted:\n%s", logs)
	}
}

// TestKillAfterTheFinalMarker: a turn's reply went out with its final
// marker while the model still writes the emotion after the text (the
// scripted model stops there) when the process is killed (kill -9).
// Restarted on the same data directory, nadine does not answer the
// transcript again (it was spoken), and the next turn's prompt has the
// exchange in its history: the history had it before the marker went out.
// (The killed turn is the conversation's second: the first turn's end
// saves the conversation's id, which a restart needs to find its window.)
func TestKillAfterTheFinalMarker(t *testing.T) {
	if testing.Short() {
		t.Skip("starts nadine serve as a child process, twice")
	}
	t.Parallel() // its own children, ports and data directory; it checks no timing
	const (
		first  = "Geneva lies on its lake. It is a lovely city."
		killed = "Living there is calm. The lake is never far."
	)
	srv := llmtest.New(t, llmtest.WithAPIKey("bench"))
	never := make(chan struct{})
	// The second turn's agent call stops after the reply text, before the
	// emotion's value; the others answer whole.
	agent := llmtest.MatchModel("react_agent")
	srv.On(agent).Once().Reply("```json\n" + orderedFinal(first, "information request") + "\n```")
	srv.On(agent).Once().Reply("```json\n"+orderedFinal(killed, "information request")+"\n```").Pause(`"emotion":`, never)
	srv.On(agent).Reply("```json\n" + orderedFinal("The old town is worth a walk.", "information request") + "\n```")
	srv.Default().Reply("What else is there to see in Geneva?") // the contextualizer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	// A known person: a stranger's conversation is not kept.
	if err := seedUser(ctx, filepath.Join(dir, "data")); err != nil {
		t.Fatal(err)
	}
	broker := mqtttest.StartBroker(t, "127.0.0.1:0")
	peer, err := dialPeer(ctx, mqtttest.HostPort(broker.URL()))
	if err != nil {
		t.Fatal(err)
	}
	defer peer.close()
	turn := func(p *serveProcess, id, text string) *turnWatch {
		t.Helper()
		if err := peer.publish(ctx, "nadine/graph/user_detected", map[string]any{"user_name": benchUserName, "user_id": benchUserID}); err != nil {
			t.Fatal(err)
		}
		w, err := peer.say(ctx, "nadine", id, text)
		if err != nil {
			t.Fatal(err)
		}
		if err := peer.wait(ctx, w, 30*time.Second); err != nil {
			t.Fatalf("%s: no final marker: %v\n%s", id, err, p.logs.String())
		}
		return w
	}

	// No timeout ends the stopped call or its turn while the test waits:
	// the marker can only come from the reply's speech end.
	life := startKillChild(t, ctx, dir, srv.URL(), broker.URL(), "5m", "5m")
	turn(life, "before-kill", "Tell me about Geneva.")
	w := turn(life, "kill-after-marker", "Is Geneva a good place to live?")
	if got := peer.result(w); strings.Join(got.texts, " ") != killed || got.finals != 1 {
		t.Fatalf("before the kill the turn said %q (%d final markers), want %q", got.texts, got.finals, killed)
	}
	life.kill() // SIGKILL: the turn never read its emotion nor ended

	second := startFillerChild(t, ctx, dir, srv.URL(), broker.URL())
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(second.logs.String(), "transcript interrupted by a restart") {
		if time.Now().After(deadline) {
			t.Fatalf("the restart did not find the spoken transcript\n%s", second.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	turn(second, "after-restart", "What else is there to see?")
	if got := peer.result(w); got.finals != 1 {
		t.Errorf("the killed turn was answered again: %d final markers, said %q", got.finals, got.texts)
	}
	var last llmtest.Request
	for _, r := range srv.ChatRequests() {
		if agent(r) {
			last = r
		}
	}
	found := false
	for _, m := range last.Messages {
		found = found || m.Role == "assistant" && strings.Contains(m.Content, killed)
	}
	if !found {
		t.Errorf("the next turn's prompt has no history of the killed turn's reply:\n%+v", last.Messages)
	}
}
