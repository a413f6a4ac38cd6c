package mqtt_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/mqtt"
)

// brokerEnv is a broker the conversation runs against, which it can stop
// and start again on the same address.
type brokerEnv struct {
	url   string
	stop  func()
	start func()
}

// inboundCase is a message a peer publishes and what nadine makes of it;
// want nil means nadine must not deliver it.
type inboundCase struct {
	name    string
	topic   string
	payload string
	want    *nadine.Inbound
}

func transcript(id, text string, lang nadine.Language) *nadine.Inbound {
	return &nadine.Inbound{Kind: nadine.InboundTranscript, Transcript: nadine.Transcript{ID: id, Text: text, Language: lang, Final: true, Received: fixedNow}, Received: fixedNow}
}

func interim(id, text string, lang nadine.Language, stable bool) *nadine.Inbound {
	in := transcript(id, text, lang)
	in.Transcript.Final, in.Transcript.Stable = false, stable
	return in
}

func spokenAt(in *nadine.Inbound, at time.Time) *nadine.Inbound {
	in.Transcript.Spoken = at
	return in
}

func inboundCases() []inboundCase {
	user := func(kind nadine.InboundKind, id, name string) *nadine.Inbound {
		return &nadine.Inbound{Kind: kind, User: nadine.UserRef{ID: id, Name: name}, Received: fixedNow}
	}
	detected := user(nadine.InboundUserDetected, "alice", "Alice")
	detected.Confidence = 0.93
	detectedSure := user(nadine.InboundUserDetected, "bob", "")
	detectedSure.Confidence = 1
	stored := user(nadine.InboundFaceStored, "alice", "Alice")
	stored.Status = "stored"
	return []inboundCase{
		{"transcript JSON", mqtt.TopicTranscript, `{"text":"  Bonjour Nadine  ","language":"fr","final":true,"id":"u-1"}`, transcript("u-1", "Bonjour Nadine", nadine.French)},
		{"transcript interim", mqtt.TopicTranscript, `{"text":"Bonj","language":"fr","final":false,"id":"u-2"}`, interim("u-2", "Bonj", nadine.French, false)},
		{"transcript interim stable", mqtt.TopicTranscript, `{"text":"Bonjour Nadine","language":"fr","final":false,"stable":true,"id":"u-2"}`, interim("u-2", "Bonjour Nadine", nadine.French, true)},
		{"transcript interim without words", mqtt.TopicTranscript, `{"text":"","final":false}`, nil},
		{"transcript interim, stable not a boolean", mqtt.TopicTranscript, `{"text":"Bonjour","final":false,"stable":"yes"}`, interim("", "Bonjour", "", false)},
		{"transcript final after its interims", mqtt.TopicTranscript, `{"text":"Bonjour Nadine.","language":"fr","final":true,"stable":true,"id":"u-2"}`, transcript("u-2", "Bonjour Nadine.", nadine.French)},
		{"transcript final missing means true", mqtt.TopicTranscript, `{"text":"What time is it?","language":"en-US"}`, transcript("", "What time is it?", nadine.English)},
		{"transcript integer id", mqtt.TopicTranscript, `{"text":"Wie geht's?","language":"German","id":42}`, transcript("42", "Wie geht's?", nadine.German)},
		{"transcript same id again", mqtt.TopicTranscript, `{"text":"Wie geht's?","language":"de","id":42}`, nil},
		{"transcript plain text", mqtt.TopicTranscript, "Hello there", transcript("", "Hello there", "")},
		{"transcript JSON string", mqtt.TopicTranscript, `"quoted words"`, transcript("", "quoted words", "")},
		{"transcript unsupported language", mqtt.TopicTranscript, `{"text":"hola","language":"es","id":"u-3"}`, transcript("u-3", "hola", "")},
		{"transcript with its time", mqtt.TopicTranscript, `{"text":"Hi","id":"t-1","time":"2025-03-14T15:09:20.5Z"}`, spokenAt(transcript("t-1", "Hi", ""), time.Date(2025, 3, 14, 15, 9, 20, 5e8, time.UTC))},
		{"transcript with a Unix timestamp in ms", mqtt.TopicTranscript, `{"text":"Hi","id":"t-2","timestamp":1741964960000}`, spokenAt(transcript("t-2", "Hi", ""), time.UnixMilli(1741964960000))},
		{"transcript with a bad time is still a turn", mqtt.TopicTranscript, `{"text":"Hi","id":"t-3","time":"yesterday"}`, transcript("t-3", "Hi", "")},
		{"transcript unknown fields", mqtt.TopicTranscript, `{"text":"你好","language":"zh","confidence":0.8,"id":null}`, transcript("", "你好", nadine.Chinese)},
		{"user name plain", mqtt.TopicUserName, "Alice\n", user(nadine.InboundUserName, "Alice", "Alice")},
		{"user name JSON", mqtt.TopicUserName, `{"user_name":"Bob","user_id":"bob-1"}`, user(nadine.InboundUserName, "bob-1", "Bob")},
		{"emotion plain", mqtt.TopicUserEmotion, "Happy", &nadine.Inbound{Kind: nadine.InboundUserEmotion, Emotion: "happy", Received: fixedNow}},
		{"emotion JSON", mqtt.TopicUserEmotion, `{"emotion":"SAD"}`, &nadine.Inbound{Kind: nadine.InboundUserEmotion, Emotion: "sad", Received: fixedNow}},
		{"user detected", mqtt.TopicUserDetected, `{"user_name":"Alice","user_id":"alice","confidence":0.93}`, detected},
		{"user detected without confidence", mqtt.TopicUserDetected, `{"user_id":"bob"}`, detectedSure},
		{"face stored", mqtt.TopicFaceStored, `{"user_name":"Alice","user_id":"alice","status":"stored"}`, stored},
		{"user left JSON", mqtt.TopicUserLeft, `{"user_id":"alice"}`, user(nadine.InboundUserLeft, "alice", "")},
		{"user left empty", mqtt.TopicUserLeft, "", user(nadine.InboundUserLeft, "", "")},
		{"start speak", mqtt.TopicStartSpeak, "1", &nadine.Inbound{Kind: nadine.InboundStartSpeak, Received: fixedNow}},
		{"end speak", mqtt.TopicEndSpeak, "", &nadine.Inbound{Kind: nadine.InboundEndSpeak, Received: fixedNow}},
		{"spoken", mqtt.TopicSpoken, `{"turn_id":"t1","seq":2}`, &nadine.Inbound{Kind: nadine.InboundSpoken, Spoken: nadine.SpokenReport{TurnID: "t1", Seq: 2, Words: -1}, Received: fixedNow}},
		{"spoken cut", mqtt.TopicSpoken, `{"turn_id":"t1","seq":3,"cut":true,"words":4}`, &nadine.Inbound{Kind: nadine.InboundSpoken, Spoken: nadine.SpokenReport{TurnID: "t1", Seq: 3, Words: 4, Cut: true}, Received: fixedNow}},
		{"spoken words without cut", mqtt.TopicSpoken, `{"turn_id":"t1","seq":3,"words":4}`, &nadine.Inbound{Kind: nadine.InboundSpoken, Spoken: nadine.SpokenReport{TurnID: "t1", Seq: 3, Words: -1}, Received: fixedNow}},
		{"speech started", mqtt.TopicSpeechStarted, "", &nadine.Inbound{Kind: nadine.InboundSpeechStarted, Received: fixedNow}},
		{"speech started at", mqtt.TopicSpeechStarted, `{"time":"2026-12-01T10:00:00Z"}`, &nadine.Inbound{Kind: nadine.InboundSpeechStarted, SpeechAt: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), Received: fixedNow}},
		{"language JSON", mqtt.TopicLanguage, `{"language":"de"}`, &nadine.Inbound{Kind: nadine.InboundLanguage, Language: nadine.German, Received: fixedNow}},
		{"language name", mqtt.TopicLanguage, "français", &nadine.Inbound{Kind: nadine.InboundLanguage, Language: nadine.French, Received: fixedNow}},
	}
}

// checkInbound publishes every case through stt (in order) and checks that
// the bus delivers exactly the expected messages, in order.
func checkInbound(t *testing.T, b *mqtt.Bus, stt *mqtttest.Peer, cases []inboundCase) {
	t.Helper()
	for _, c := range cases {
		stt.Publish(b.Topic(c.topic), []byte(c.payload))
	}
	// A sentinel proves that nothing expected-dropped arrives late.
	stt.Publish(b.Topic(mqtt.TopicTranscript), []byte(`{"text":"sentinel","id":"sentinel-`+t.Name()+`"}`))
	for _, c := range cases {
		if c.want == nil {
			continue
		}
		if got := next(t, b); !reflect.DeepEqual(got, *c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, *c.want)
		}
	}
	if got := next(t, b); got.Transcript.Text != "sentinel" {
		t.Errorf("after the cases: got %+v, want the sentinel", got)
	}
}

// outboundWant is a message the control peer must receive.
type outboundWant struct {
	rel         string
	payload     string
	contentType string
	user        map[string]string // user properties, when checked
}

func checkReceived(t *testing.T, s spec, got *paho.Publish, prefix string, want outboundWant) {
	t.Helper()
	if got.Topic != prefix+"/"+want.rel {
		t.Errorf("topic %q, want %q", got.Topic, prefix+"/"+want.rel)
		return
	}
	if string(got.Payload) != want.payload {
		t.Errorf("%s: payload %s, want %s", want.rel, got.Payload, want.payload)
	}
	if got.QoS != 1 {
		t.Errorf("%s: QoS %d, want 1", want.rel, got.QoS)
	}
	var ct string
	var user paho.UserProperties
	if got.Properties != nil {
		ct, user = got.Properties.ContentType, got.Properties.User
	}
	if ct != want.contentType {
		t.Errorf("%s: content type %q, want %q", want.rel, ct, want.contentType)
	}
	for k, v := range want.user {
		if g := user.Get(k); g != v {
			t.Errorf("%s: user property %s = %q, want %q", want.rel, k, g, v)
		}
	}
	if want.contentType == mqtt.ContentTypeJSON {
		s.checkOutbound(t, want.rel, got.Payload)
	}
}

// checkOutbound calls every outbound method and checks what control
// receives, byte for byte.
func checkOutbound(t *testing.T, b *mqtt.Bus, control *mqtttest.Peer) {
	t.Helper()
	s := loadSpec(t)
	ctx := context.Background()
	steps := []struct {
		name string
		call func() error
		want []outboundWant
	}{
		{"speak", func() error {
			return b.Speak(ctx, nadine.Speech{Text: "Je vais bien, merci !", Language: nadine.French, Seq: 0, TurnID: "t-42"})
		}, []outboundWant{
			{mqtt.TopicSpeak, `{"text":"Je vais bien, merci !","language":"fr","locale":"fr-FR","seq":0,"final":false,"turn_id":"t-42"}`, mqtt.ContentTypeJSON, nil},
			{mqtt.TopicSpeakText, "Je vais bien, merci !", mqtt.ContentTypeText, map[string]string{"locale": "fr-FR", "language": "fr", "seq": "0", "final": "false", "turn_id": "t-42"}},
		}},
		{"speak final, default language", func() error {
			return b.Speak(ctx, nadine.Speech{Text: "Bye.", Seq: 1, Final: true, TurnID: "t-42"})
		}, []outboundWant{
			{mqtt.TopicSpeak, `{"text":"Bye.","language":"en","locale":"en-US","seq":1,"final":true,"turn_id":"t-42"}`, mqtt.ContentTypeJSON, nil},
			{mqtt.TopicSpeakText, "Bye.", mqtt.ContentTypeText, map[string]string{"locale": "en-US", "final": "true", "seq": "1"}},
		}},
		{"speak end of turn marker", func() error {
			return b.Speak(ctx, nadine.Speech{Language: nadine.Chinese, Seq: 2, Final: true, TurnID: "t-43"})
		}, []outboundWant{
			{mqtt.TopicSpeak, `{"text":"","language":"zh","locale":"zh-CN","seq":2,"final":true,"turn_id":"t-43"}`, mqtt.ContentTypeJSON, nil},
		}},
		{"animate", func() error { return b.Animate(ctx, nadine.Wave) }, []outboundWant{
			{mqtt.TopicAnimation, "wave", mqtt.ContentTypeText, nil},
		}},
		{"song", func() error {
			return b.PlaySong(ctx, nadine.Song{Title: "Frère Jacques", Language: nadine.French, Path: "/songs/frere_jacques.wav"})
		}, []outboundWant{
			{mqtt.TopicSong, `{"title":"Frère Jacques","language":"fr","path":"/songs/frere_jacques.wav"}`, mqtt.ContentTypeJSON, nil},
		}},
		{"affect", func() error {
			return b.PublishAffect(ctx, nadine.AffectState{Label: nadine.Joy, Intensity: 0.7, Arousal: 0.5, Pleasure: 0.4, Dominance: 0.2, MoodArousal: 0.3, MoodLabel: "slightly exuberant"})
		}, []outboundWant{
			{mqtt.TopicAffect, `{"label":"joy","intensity":0.7,"arousal":0.5,"pleasure":0.4,"dominance":0.2,"mood_arousal":0.3,"mood_label":"slightly exuberant"}`, mqtt.ContentTypeJSON, nil},
		}},
		{"affect clamped, neutral", func() error {
			return b.PublishAffect(ctx, nadine.AffectState{Intensity: 1.5, Arousal: -2})
		}, []outboundWant{
			{mqtt.TopicAffect, `{"label":"neutral","intensity":1,"arousal":-1,"pleasure":0,"dominance":0,"mood_arousal":0}`, mqtt.ContentTypeJSON, nil},
		}},
		{"user info", func() error { return b.PublishUserInfo(ctx, nadine.UserRef{ID: "alice", Name: "Alice"}) }, []outboundWant{
			{mqtt.TopicUserInfo, `{"user_id":"alice","user_name":"Alice"}`, mqtt.ContentTypeJSON, nil},
		}},
		{"forget face", func() error { return b.ForgetFace(ctx, "alice") }, []outboundWant{
			{mqtt.TopicUserInfo, `{"user_id":"alice","user_name":"","forget":true}`, mqtt.ContentTypeJSON, nil},
		}},
		{"capture", func() error { return b.RequestCapture(ctx, "/tmp/nadine/view-1.jpg") }, []outboundWant{
			{mqtt.TopicCapture, "/tmp/nadine/view-1.jpg", mqtt.ContentTypeText, nil},
		}},
		{"stt language", func() error { return b.PublishLanguage(ctx, nadine.German) }, []outboundWant{
			{mqtt.TopicSTTLanguage, `{"language":"de","locale":"de-DE"}`, mqtt.ContentTypeJSON, nil},
		}},
		{"stop", func() error { return b.StopSpeaking(ctx, "t-42", "interrupted") }, []outboundWant{
			{mqtt.TopicStop, `{"turn_id":"t-42","reason":"interrupted"}`, mqtt.ContentTypeJSON, nil},
		}},
		{"raw", func() error { return b.Publish(ctx, "debug/raw", []byte("anything")) }, []outboundWant{
			{"debug/raw", "anything", "", nil},
		}},
	}
	for _, st := range steps {
		if err := st.call(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		for _, w := range st.want {
			checkReceived(t, s, control.Next(), b.Prefix(), w)
		}
	}
}

// controlFilters are the topics a control/perception peer listens to.
func controlFilters(prefix string) []string {
	var filters []string
	for _, t := range mqtt.OutboundTopics() {
		filters = append(filters, prefix+"/"+t)
	}
	return append(filters, prefix+"/debug/#")
}

// conversation runs a whole conversation against a broker: every inbound
// kind, every outbound kind, then a broker restart in the middle.
func conversation(t *testing.T, env brokerEnv) {
	addr := hostPort(env.url)
	// nadine reaches the broker through a proxy, so the test can cut the
	// network while the broker stays up; the peers connect directly.
	net := newProxy(t, addr)
	l := &logs{}
	opts := testOptions(net.url(), l)
	opts.ClientID = "nadine-conversation"
	opts.Username, opts.Password = "nadine", "s3cret-pa55word"
	b := connect(t, opts)
	if !b.Connected() {
		t.Fatal("Connected() = false after Connect")
	}
	stt := newPeer(t, addr)
	control := newPeer(t, addr, controlFilters(b.Prefix())...)

	t.Run("inbound", func(t *testing.T) { checkInbound(t, b, stt, inboundCases()) })
	t.Run("outbound", func(t *testing.T) { checkOutbound(t, b, control) })
	t.Run("spec examples", func(t *testing.T) {
		kinds := map[string]nadine.InboundKind{
			mqtt.TopicTranscript: nadine.InboundTranscript, mqtt.TopicUserName: nadine.InboundUserName,
			mqtt.TopicUserEmotion: nadine.InboundUserEmotion, mqtt.TopicUserDetected: nadine.InboundUserDetected,
			mqtt.TopicFaceStored: nadine.InboundFaceStored, mqtt.TopicUserLeft: nadine.InboundUserLeft,
			mqtt.TopicStartSpeak: nadine.InboundStartSpeak, mqtt.TopicEndSpeak: nadine.InboundEndSpeak,
			mqtt.TopicLanguage: nadine.InboundLanguage, mqtt.TopicSpoken: nadine.InboundSpoken,
			mqtt.TopicSpeechStarted: nadine.InboundSpeechStarted,
		}
		isMarker := func(in nadine.Inbound) bool { return in.Kind == nadine.InboundUserLeft && in.User.ID == "marker" }
		examples := loadSpec(t).inboundExamples(t)
		if len(examples) < len(mqtt.InboundTopics()) {
			t.Fatalf("%d inbound examples, want at least one per inbound topic", len(examples))
		}
		for _, ex := range examples {
			stt.Publish(b.Topic(ex.rel), ex.payload)
			stt.Publish(b.Topic(mqtt.TopicUserLeft), []byte("marker"))
			got := next(t, b)
			if !ex.ignored {
				if isMarker(got) || got.Kind != kinds[ex.rel] {
					t.Errorf("example %s: got %+v, want a %s message", ex.name, got, kinds[ex.rel])
					continue
				}
				got = next(t, b)
			}
			if !isMarker(got) {
				t.Errorf("example %s: got %+v, want the marker", ex.name, got)
			}
		}
	})
	t.Run("retained stt language", func(t *testing.T) {
		late := newPeer(t, addr, b.Topic(mqtt.TopicSTTLanguage))
		got := late.Next()
		if string(got.Payload) != `{"language":"de","locale":"de-DE"}` || !got.Retain {
			t.Errorf("late subscriber got %s (retain %v), want the retained language", got.Payload, got.Retain)
		}
	})

	t.Run("brief network outage", func(t *testing.T) {
		net.cut()
		eventually(t, "the bus to notice the outage", func() bool { return !b.Connected() })
		// The broker keeps nadine's session: QoS 1 transcripts published
		// meanwhile are delivered on reconnection, exactly once, in order.
		for _, id := range []string{"o-1", "o-2", "o-3"} {
			stt.Publish(b.Topic(mqtt.TopicTranscript), []byte(`{"text":"while away","id":"`+id+`"}`))
		}
		net.listen()
		eventually(t, "the bus to reconnect", b.Connected)
		stt.Publish(b.Topic(mqtt.TopicTranscript), []byte(`{"text":"back","id":"o-4"}`))
		var got []string
		for len(got) < 4 {
			in := next(t, b)
			if in.Kind != nadine.InboundTranscript {
				// QoS 1 may redeliver the last message before the cut if
				// its acknowledgment was lost; only transcripts are
				// deduplicated.
				t.Logf("redelivered %s", in.Kind)
				continue
			}
			got = append(got, in.Transcript.ID)
		}
		if want := []string{"o-1", "o-2", "o-3", "o-4"}; !slices.Equal(got, want) {
			t.Errorf("got transcripts %v, want %v exactly once", got, want)
		}
		var present bool
		for _, r := range l.records("mqtt: connected") {
			present = present || r["session_present"] == true
		}
		if !present {
			t.Error("no reconnection found the session present")
		}
	})

	t.Run("broker restart", func(t *testing.T) {
		stt.Publish(b.Topic(mqtt.TopicTranscript), []byte(`{"text":"before restart","id":"r-0"}`))
		if got := next(t, b); got.Transcript.ID != "r-0" {
			t.Fatalf("got %+v, want r-0", got)
		}
		env.stop()
		eventually(t, "the bus to notice the broker is gone", func() bool { return !b.Connected() })

		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		err := b.Speak(ctx, nadine.Speech{Text: "nobody hears this"})
		cancel()
		if got, want := nadine.ErrorCode(err), nadine.EUNAVAILABLE; got != want {
			t.Errorf("Speak while the broker is down: error %v (code %q), want code %q", err, got, want)
		}
		if err != nil && !strings.Contains(err.Error(), "mqtt: publish "+b.Topic(mqtt.TopicSpeak)) {
			t.Errorf("error %q does not name the topic", err)
		}

		env.start()
		eventually(t, "the bus to reconnect and resubscribe", b.Connected)

		stt := newPeer(t, addr)
		control := newPeer(t, addr, controlFilters(b.Prefix())...)
		stt.Publish(b.Topic(mqtt.TopicTranscript), []byte(`{"text":"after restart","id":"r-1"}`))
		stt.Publish(b.Topic(mqtt.TopicTranscript), []byte(`{"text":"second","id":"r-2"}`))
		// STT republishes r-1 (as a redelivery would): not a second turn.
		stt.Publish(b.Topic(mqtt.TopicTranscript), []byte(`{"text":"after restart","id":"r-1"}`))
		stt.Publish(b.Topic(mqtt.TopicTranscript), []byte(`{"text":"before restart","id":"r-0"}`))
		stt.Publish(b.Topic(mqtt.TopicTranscript), []byte(`{"text":"last","id":"r-3"}`))
		for _, want := range []string{"r-1", "r-2", "r-3"} {
			if got := next(t, b); got.Transcript.ID != want {
				t.Errorf("got transcript %q (%q), want %q exactly once, in order", got.Transcript.ID, got.Transcript.Text, want)
			}
		}
		if err := b.Speak(context.Background(), nadine.Speech{Text: "I am back.", TurnID: "t-50"}); err != nil {
			t.Fatalf("Speak after restart: %v", err)
		}
		if got := control.Next(); string(got.Payload) != `{"text":"I am back.","language":"en","locale":"en-US","seq":0,"final":false,"turn_id":"t-50"}` {
			t.Errorf("control got %s after the restart", got.Payload)
		}
		if got := len(l.records("mqtt: subscribed")); got < 2 {
			t.Errorf("%d subscriptions logged, want one per connection (>= 2)", got)
		}
	})

	ctx, cancel := context.WithTimeout(context.Background(), failsafe)
	defer cancel()
	if err := b.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, ok := <-b.Inbound(); ok {
		t.Error("Inbound still open after Close")
	}
	if err := b.Animate(context.Background(), nadine.Smile); nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
		t.Errorf("Animate after Close: %v, want EUNAVAILABLE", err)
	}
	if strings.Contains(l.String(), opts.Password) {
		t.Error("the logs contain the password")
	}
}

func TestConversation_Embedded(t *testing.T) {
	first := startBroker(t, "127.0.0.1:0")
	addr := first.Addr()
	current := first
	conversation(t, brokerEnv{
		url:  first.URL(),
		stop: func() { _ = current.Close() },
		start: func() {
			current = startBroker(t, addr)
		},
	})
}
