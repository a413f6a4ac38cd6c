package mqtt_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/mqtt"
)

// TestSpeak_NotTwiceAfterBrokerRestart: a sentence the broker acknowledged
// is not published again when it is asked again (same turn_id and seq)
// after the broker restarted; the turn's next sentence goes out.
func TestSpeak_NotTwiceAfterBrokerRestart(t *testing.T) {
	first := startBroker(t, "127.0.0.1:0")
	addr := first.Addr()
	b := connect(t, testOptions(first.URL(), &logs{}))
	ctx, cancel := context.WithTimeout(context.Background(), failsafe)
	defer cancel()
	say := func(seq int, text string) {
		t.Helper()
		if err := b.Speak(ctx, nadine.Speech{Text: text, Seq: seq, TurnID: "turn-1"}); err != nil {
			t.Fatalf("Speak %d: %v", seq, err)
		}
	}
	say(0, "First sentence.")
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the bus to notice", func() bool { return !b.Connected() })
	startBroker(t, addr)
	eventually(t, "the bus to reconnect", b.Connected)
	tts := newPeer(t, addr, b.Topic(mqtt.TopicSpeak), b.Topic(mqtt.TopicSpeakText))
	say(0, "First sentence.") // asked again: already acknowledged
	say(1, "Second sentence.")
	var got []string
	for len(got) < 2 {
		m := tts.Next()
		if m.Topic == b.Topic(mqtt.TopicSpeakText) {
			got = append(got, "text:"+string(m.Payload))
			continue
		}
		var s struct {
			Seq int `json:"seq"`
		}
		if err := json.Unmarshal(m.Payload, &s); err != nil {
			t.Fatal(err)
		}
		got = append(got, "json:"+string(rune('0'+s.Seq)))
	}
	if got[0] != "json:1" || got[1] != "text:Second sentence." {
		t.Errorf("after the restart TTS got %v, want only seq 1 (json then text)", got)
	}
	select {
	case m := <-tts.Msg:
		t.Errorf("unexpected message %s: %s", m.Topic, m.Payload)
	default:
	}
}
