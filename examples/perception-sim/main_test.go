package main

import (
	"context"
	"encoding/json"
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
