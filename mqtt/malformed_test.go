package mqtt_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/mqtt"
)

// secret marks malformed payloads: it must never show up in the logs.
const secret = "PRIVATE-WORDS"

func TestBus_MalformedDropped(t *testing.T) {
	broker := startBroker(t, "127.0.0.1:0")
	l := &logs{}
	opts := testOptions(broker.URL(), l)
	opts.MaxPayload = 256
	b := connect(t, opts)
	stt := newPeer(t, broker.Addr())

	invalidUTF8 := "\xff\xfe " + secret
	oversized := `{"text":"` + secret + strings.Repeat("a", 256) + `"}`
	common := []string{invalidUTF8, oversized}
	badJSON := `{"text": "` + secret
	tests := []struct {
		topic string
		bad   []string
		good  string
		kind  nadine.InboundKind
	}{
		{mqtt.TopicTranscript, []string{badJSON, `{"text":5}`, `{"text":"` + secret + `","final":"yes"}`, `{"text":"   "}`, "   ", `{"text":"` + secret + `","id":1.5}`}, `{"text":"valid"}`, nadine.InboundTranscript},
		{mqtt.TopicUserName, []string{badJSON, `{"user_name":7}`, "", `{"user_id":"` + secret + `"}`}, "Alice", nadine.InboundUserName},
		{mqtt.TopicUserEmotion, []string{badJSON, `{"emotion":["` + secret + `"]}`, "", strings.Repeat("x", 65), "happy\nsad"}, "happy", nadine.InboundUserEmotion},
		{mqtt.TopicUserDetected, []string{badJSON, secret, `{"user_id":"a","confidence":"high"}`, `{"user_id":"a","confidence":1.5}`, `{"confidence":0.5}`}, `{"user_id":"a"}`, nadine.InboundUserDetected},
		{mqtt.TopicFaceStored, []string{badJSON, `{}`, `{"user_id":3}`, secret}, `{"user_id":"a"}`, nadine.InboundFaceStored},
		{mqtt.TopicUserLeft, []string{badJSON, `{"user_id":5}`}, `{"user_id":"a"}`, nadine.InboundUserLeft},
		{mqtt.TopicStartSpeak, nil, badJSON, nadine.InboundStartSpeak}, // the payload is not read
		{mqtt.TopicEndSpeak, nil, "", nadine.InboundEndSpeak},
		{mqtt.TopicLanguage, []string{badJSON, "Klingon", `{"language":1}`, "", `{"language":"` + secret + `"}`}, "fr", nadine.InboundLanguage},
		{mqtt.TopicSpoken, []string{badJSON, secret, `{"seq":0}`, `{"turn_id":"t"}`, `{"turn_id":"t","seq":-1}`, `{"turn_id":"t","seq":"0"}`}, `{"turn_id":"t","seq":0}`, nadine.InboundSpoken},
		{mqtt.TopicSpeechStarted, nil, badJSON, nadine.InboundSpeechStarted}, // a payload without a time is the signal alone
	}
	if got, want := len(tests), len(mqtt.InboundTopics()); got != want {
		t.Fatalf("%d topics tested, want every inbound topic (%d)", got, want)
	}
	for _, tt := range tests {
		t.Run(tt.topic, func(t *testing.T) {
			topic := b.Topic(tt.topic)
			bad := append(append([]string{}, common...), tt.bad...)
			before := countDrops(l, topic)
			for _, p := range bad {
				stt.Publish(topic, []byte(p))
			}
			stt.Publish(topic, []byte(tt.good))
			if got := next(t, b); got.Kind != tt.kind {
				t.Fatalf("after the malformed payloads got %+v, want the valid %s", got, tt.kind)
			}
			// Messages are handled in order: the drops were logged before
			// the valid message was queued.
			drops := l.records("mqtt: malformed message dropped")
			var mine []map[string]any
			for _, r := range drops {
				if r["topic"] == topic {
					mine = append(mine, r)
				}
			}
			mine = mine[before:]
			if got, want := len(mine), len(bad); got != want {
				t.Fatalf("%d drops logged, want %d", got, want)
			}
			for i, r := range mine {
				if r["level"] != "WARN" || r["reason"] == "" || r["size"] != float64(len(bad[i])) {
					t.Errorf("drop %d logged as %v, want level WARN, a reason and size %d", i, r, len(bad[i]))
				}
			}
			if !strings.Contains(mine[0]["reason"].(string), "UTF-8") || !strings.Contains(mine[1]["reason"].(string), "larger than 256") {
				t.Errorf("reasons %q, %q: want invalid UTF-8 then too large", mine[0]["reason"], mine[1]["reason"])
			}
		})
	}
	if strings.Contains(l.String(), secret) {
		t.Errorf("the logs contain a payload:\n%s", l.String())
	}
}

func countDrops(l *logs, topic string) int {
	n := 0
	for _, r := range l.records("mqtt: malformed message dropped") {
		if r["topic"] == topic {
			n++
		}
	}
	return n
}

func TestBus_InboundQueueFull(t *testing.T) {
	broker := startBroker(t, "127.0.0.1:0")
	l := &logs{}
	opts := testOptions(broker.URL(), l)
	opts.InboundBuffer = 1
	opts.InboundTimeout = 20 * time.Millisecond
	b := connect(t, opts)
	stt := newPeer(t, broker.Addr())

	// Nobody reads: the first transcript fills the queue, the next two wait
	// InboundTimeout each and are dropped. The broker's acknowledgments
	// keep coming, so the publisher is never stuck.
	for _, text := range []string{"one", "two", "three"} {
		stt.Publish(b.Topic(mqtt.TopicTranscript), []byte(text))
	}
	eventually(t, "two drops", func() bool { return len(l.records("mqtt: inbound queue full; message dropped")) == 2 })
	if got := next(t, b); got.Transcript.Text != "one" {
		t.Fatalf("got %q, want one", got.Transcript.Text)
	}
	stt.Publish(b.Topic(mqtt.TopicTranscript), []byte("four"))
	if got := next(t, b); got.Transcript.Text != "four" {
		t.Fatalf("got %q, want four (the queue drains and flows again)", got.Transcript.Text)
	}
	// A dropped transcript was not recorded as delivered: sent again, it
	// is a turn.
	stt.Publish(b.Topic(mqtt.TopicTranscript), []byte(`{"text":"two","id":"x-2"}`))
	if got := next(t, b); got.Transcript.ID != "x-2" {
		t.Fatalf("got %+v, want x-2", got)
	}
}

func TestBus_PrefixIsolation(t *testing.T) {
	broker := startBroker(t, "127.0.0.1:0")
	optsA := testOptions(broker.URL(), &logs{})
	optsA.Prefix = "robot-a"
	optsB := testOptions(broker.URL(), &logs{})
	optsB.Prefix = "robot/b"
	a, b := connect(t, optsA), connect(t, optsB)
	stt := newPeer(t, broker.Addr())
	controlB := newPeer(t, broker.Addr(), "robot/b/agent/#")

	stt.Publish("robot-a/stt/transcript", []byte("for A"))
	stt.Publish("robot/b/stt/transcript", []byte("for B"))
	stt.Publish("nadine/stt/transcript", []byte("for the default prefix"))
	stt.Publish("robot-a/stt/transcript", []byte("A again"))
	stt.Publish("robot/b/stt/transcript", []byte("B again"))
	for _, tc := range []struct {
		bus  *mqtt.Bus
		want []string
	}{{a, []string{"for A", "A again"}}, {b, []string{"for B", "B again"}}} {
		for _, want := range tc.want {
			if got := next(t, tc.bus); got.Transcript.Text != want {
				t.Errorf("%s: got %q, want %q", tc.bus.Prefix(), got.Transcript.Text, want)
			}
		}
	}

	ctx := context.Background()
	if err := a.Animate(ctx, "smile"); err != nil {
		t.Fatal(err)
	}
	if err := b.Animate(ctx, "wave"); err != nil {
		t.Fatal(err)
	}
	if got := controlB.Next(); got.Topic != "robot/b/agent/control/animation" || string(got.Payload) != "wave" {
		t.Errorf("robot B's control got %s %q first, want its own wave", got.Topic, got.Payload)
	}
	select {
	case got := <-controlB.Msg:
		t.Errorf("robot B's control also got %s %q", got.Topic, got.Payload)
	default:
	}
}
