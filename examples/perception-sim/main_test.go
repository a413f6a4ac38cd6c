package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/examples/internal/busclient"
	"github.com/nadine-robot/nadine/examples/internal/examplestest"
	"github.com/nadine-robot/nadine/internal/mqtttest"
)

// TestSimulator plays two people against the embedded broker and checks
// what nadine would receive, in order: each one detected, their emotions
// in turn while they stay, then gone.
func TestSimulator(t *testing.T) {
	b := mqtttest.StartBroker(t, "127.0.0.1:0")
	peer := mqtttest.NewPeer(t, mqtttest.HostPort(b.URL()), "robot2/#")
	var logs examplestest.SyncBuffer
	err := run(context.Background(), []string{"--url", b.URL(), "--prefix", "robot2", "--people", "Alex, Robin Smith",
		"--emotions", "happy,sad", "--every", "30ms", "--stay", "70ms", "--gap", "10ms", "--rounds", "2"}, &logs)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, logs.String())
	}
	var got []string
	for range 10 {
		m := peer.Next()
		var v map[string]any
		if err := json.Unmarshal(m.Payload, &v); err != nil {
			t.Fatalf("%s: %q is not JSON: %v", m.Topic, m.Payload, err)
		}
		topic := strings.TrimPrefix(m.Topic, "robot2/")
		switch topic {
		case busclient.TopicUserDetected:
			if c, _ := v["confidence"].(float64); c <= 0 || c > 1 {
				t.Errorf("confidence %v", v["confidence"])
			}
			got = append(got, topic+" "+v["user_name"].(string)+"/"+v["user_id"].(string))
		case busclient.TopicUserEmotion:
			got = append(got, topic+" "+v["emotion"].(string))
		case busclient.TopicUserLeft:
			got = append(got, topic+" "+v["user_id"].(string))
		default:
			t.Errorf("unexpected topic %s", m.Topic)
		}
	}
	want := []string{
		"graph/user_detected Alex/alex", "user/emotion happy", "user/emotion sad", "user/emotion happy", "user/left alex",
		"graph/user_detected Robin Smith/robin_smith", "user/emotion happy", "user/emotion sad", "user/emotion happy", "user/left robin_smith",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("published:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestSimulatorUsage(t *testing.T) {
	var logs examplestest.SyncBuffer
	for _, args := range [][]string{{"--people", " , "}, {"--every", "0s"}, {"--rounds", "-1"}} {
		if err := run(context.Background(), args, &logs); err == nil {
			t.Errorf("run %v: no error", args)
		}
	}
}

// TestSimulatorTalksOverHer: with --say and --talk-over, the person says
// each line as speech-to-text would (voice activity, interim transcripts a
// word at a time, the final one), and the second line starts while Nadine
// (a peer here) is still answering the first, without waiting for her end.
func TestSimulatorTalksOverHer(t *testing.T) {
	b := mqtttest.StartBroker(t, "127.0.0.1:0")
	addr := mqtttest.HostPort(b.URL())
	nadine := mqtttest.NewPeer(t, addr, "robot2/stt/#", "robot2/user/left")
	var logs examplestest.SyncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(context.Background(), []string{"--url", b.URL(), "--prefix", "robot2", "--people", "Alex",
			"--emotions", "", "--every", "2s", "--stay", "2s", "--rounds", "1",
			"--say", "hello there | wait what is your name", "--language", "fr", "--talk-over", "50ms"}, &logs)
	}()
	var got []string
	for {
		m := nadine.Next()
		if strings.HasSuffix(m.Topic, "/user/left") {
			break
		}
		var v struct {
			Text     string `json:"text"`
			Language string `json:"language"`
			Final    bool   `json:"final"`
			ID       string `json:"id"`
		}
		if err := json.Unmarshal(m.Payload, &v); err != nil {
			t.Fatalf("%s: %q: %v", m.Topic, m.Payload, err)
		}
		if strings.HasSuffix(m.Topic, "/speech_started") {
			got = append(got, "voice")
			continue
		}
		if v.Language != "fr" || v.Final != (v.ID != "") {
			t.Errorf("transcript %s", m.Payload)
		}
		got = append(got, fmt.Sprintf("%s final=%v", v.Text, v.Final))
		if v.Final && v.Text == "hello there" {
			// Nadine starts answering and never finishes.
			nadine.Publish("robot2/agent/control/speak", []byte(`{"text":"Bonjour !","seq":0,"final":false,"turn_id":"t1"}`))
		}
	}
	if err := <-done; err != nil {
		t.Fatalf("run: %v\n%s", err, logs.String())
	}
	want := []string{"voice", "hello final=false", "hello there final=true",
		"voice", "wait final=false", "wait what final=false", "wait what is final=false", "wait what is your final=false", "wait what is your name final=true"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("said:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
