package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/examples/internal/examplestest"
	"github.com/nadine-robot/nadine/internal/mqtttest"
)

func TestChooseVoice(t *testing.T) {
	voices := map[string]bool{"en-us": true, "en-gb": true, "fr-fr": true, "de": true, "cmn": true}
	tests := []struct{ locale, language, want string }{
		{"fr-FR", "fr", "fr-fr"},
		{"en-GB", "en", "en-gb"},
		{"de-DE", "de", "de"},
		{"zh-CN", "zh", "cmn"},
		{"", "fr", "fr"},
		{"", "de", "de"},
		{"pt-BR", "pt", "en-us"},
		{"en_US", "", "en-us"},
	}
	voices["fr"] = true
	for _, tt := range tests {
		if got := chooseVoice(tt.locale, tt.language, voices); got != tt.want {
			t.Errorf("chooseVoice(%q, %q) = %q, want %q", tt.locale, tt.language, got, tt.want)
		}
	}
}

// TestBridge runs the bridge against the embedded broker with espeak-ng:
// the sentences of a turn become WAV files in the locale's voice, with
// start_speak before them and end_speak after the final one.
func TestBridge(t *testing.T) {
	examplestest.NeedProgram(t, "espeak-ng", "espeak-ng")
	b := mqtttest.StartBroker(t, "127.0.0.1:0")
	out := t.TempDir()
	var logs examplestest.SyncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"--url", b.URL(), "--prefix", "robot1", "--out", out}, &logs) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	mqtttest.Eventually(t, "the bridge listening", func() bool { return strings.Contains(logs.String(), "listening") })

	peer := mqtttest.NewPeer(t, mqtttest.HostPort(b.URL()), "robot1/agent/feedback/#")
	say := func(s sentence) {
		b, _ := json.Marshal(s)
		peer.Publish("robot1/agent/control/speak", b)
	}
	say(sentence{Text: "Un instant, je regarde.", Language: "fr", Locale: "fr-FR", Seq: 1, TurnID: "t1", Filler: true})
	say(sentence{Text: "Bonjour, je suis Nadine.", Language: "fr", Locale: "fr-FR", Seq: 2, TurnID: "t1"})
	say(sentence{Text: "-Il fait beau à Genève.", Language: "fr", Locale: "fr-FR", Seq: 3, TurnID: "t1"})
	say(sentence{Text: "", Language: "fr", Locale: "fr-FR", Seq: 4, Final: true, TurnID: "t1"})
	say(sentence{Text: "Hello again.", Language: "en", Locale: "en-US", Seq: 1, Final: true, TurnID: "t2"})

	var got []string
	spoken := 0
	for len(got) < 4 {
		m := peer.Next()
		if strings.HasSuffix(m.Topic, "/spoken") {
			spoken++
			continue
		}
		var f feedback
		if err := json.Unmarshal(m.Payload, &f); err != nil {
			t.Fatalf("%s: %q: %v", m.Topic, m.Payload, err)
		}
		got = append(got, strings.TrimPrefix(m.Topic, "robot1/agent/feedback/")+" "+f.TurnID)
	}
	want := []string{"start_speak t1", "end_speak t1", "start_speak t2", "end_speak t2"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("feedback = %q, want %q", got, want)
	}
	if spoken != 4 {
		t.Errorf("%d sentences reported spoken, want 4", spoken)
	}
	for _, name := range []string{"t1-001.wav", "t1-002.wav", "t1-003.wav", "t2-001.wav"} {
		st, err := os.Stat(filepath.Join(out, name))
		if err != nil {
			t.Errorf("%s: %v, want a WAV file", name, err)
		} else if st.Size() < 1000 {
			t.Errorf("%s: %d bytes, want a WAV file", name, st.Size())
		}
	}
	if _, err := os.Stat(filepath.Join(out, "t1-004.wav")); err == nil {
		t.Errorf("the empty final sentence was spoken")
	}
	l := logs.String()
	if strings.Count(l, "voice=fr-fr") != 3 || strings.Count(l, "voice=en-us") != 1 {
		t.Errorf("voices chosen:\n%s", l)
	}
}

// TestBridgeStop runs the bridge paced like a real speaker: the first
// sentence is reported said, a stop cuts the second (reported with the
// words said), the third is dropped, end_speak follows, and a sentence of
// the same turn sent after the stop (a resumed reply) is spoken.
func TestBridgeStop(t *testing.T) {
	examplestest.NeedProgram(t, "espeak-ng", "espeak-ng")
	b := mqtttest.StartBroker(t, "127.0.0.1:0")
	out := t.TempDir()
	var logs examplestest.SyncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"--url", b.URL(), "--prefix", "r", "--out", out, "--pace"}, &logs) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	mqtttest.Eventually(t, "the bridge listening", func() bool { return strings.Contains(logs.String(), "listening") })
	peer := mqtttest.NewPeer(t, mqtttest.HostPort(b.URL()), "r/agent/feedback/#")
	say := func(s sentence) {
		p, _ := json.Marshal(s)
		peer.Publish("r/agent/control/speak", p)
	}
	next := func() (string, report) {
		m := peer.Next()
		var r report
		if err := json.Unmarshal(m.Payload, &r); err != nil {
			t.Fatalf("%s: %q: %v", m.Topic, m.Payload, err)
		}
		return strings.TrimPrefix(m.Topic, "r/agent/feedback/"), r
	}
	say(sentence{Text: "Hello.", Language: "en", Locale: "en-US", Seq: 0, TurnID: "t1"})
	say(sentence{Text: "I was built in Singapore by a team at Nanyang Technological University, a long time ago, and I have been in Geneva since then.", Language: "en", Locale: "en-US", Seq: 1, TurnID: "t1"})
	say(sentence{Text: "This sentence is never said.", Language: "en", Locale: "en-US", Seq: 2, TurnID: "t1"})
	if topic, _ := next(); topic != "start_speak" {
		t.Fatalf("first feedback %s, want start_speak", topic)
	}
	if topic, r := next(); topic != "spoken" || r.Seq != 0 || r.Cut {
		t.Fatalf("got %s %+v, want seq 0 spoken whole", topic, r)
	}
	peer.Publish("r/agent/control/stop", []byte(`{"turn_id":"t1","reason":"interrupted"}`))
	topic, r := next()
	if topic != "spoken" || r.Seq != 1 || !r.Cut || r.Words == nil || *r.Words >= 26 {
		t.Fatalf("got %s %+v, want seq 1 cut before its end", topic, r)
	}
	if topic, _ := next(); topic != "end_speak" {
		t.Fatalf("got %s, want end_speak after the stop", topic)
	}
	say(sentence{Text: "As I was saying.", Language: "en", Locale: "en-US", Seq: 3, TurnID: "t1"})
	if topic, _ := next(); topic != "start_speak" {
		t.Fatalf("got %s, want start_speak for the resumed reply", topic)
	}
	if topic, r := next(); topic != "spoken" || r.Seq != 3 {
		t.Fatalf("got %s %+v, want the resumed sentence spoken", topic, r)
	}
	if _, err := os.Stat(filepath.Join(out, "t1-002.wav")); err == nil {
		t.Error("the dropped sentence was spoken")
	}
}

// TestSayFailure: espeak-ng exits 0 when it cannot open the sound device
// or write its WAV file; the bridge must not take that for speech (no
// "spoke" in its log, an error instead, so no spoken report follows).
func TestSayFailure(t *testing.T) {
	tests := []struct {
		name, espeak, out string
	}{
		// espeak-ng's own words on a machine without a sound card.
		{name: "no sound device", espeak: fakeEspeak(t, "ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\nerror: No such file or directory"), out: ""},
		{name: "WAV not written", espeak: fakeEspeak(t, "Can't write to: '/nowhere/t-001.wav'"), out: t.TempDir()},
		{name: "silent but no file", espeak: fakeEspeak(t, ""), out: t.TempDir()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs examplestest.SyncBuffer
			sp := &speaker{espeak: tt.espeak, out: tt.out, voices: map[string]bool{"en-us": true}, log: slog.New(slog.NewTextHandler(&logs, nil))}
			err := sp.say(t.Context(), sentence{Text: "Hello there.", Language: "en", Locale: "en-US", Seq: 1, TurnID: "t"})
			if err == nil {
				t.Fatal("say succeeded, want an error")
			}
			if strings.Contains(logs.String(), "spoke") {
				t.Errorf("logged spoke after a failure:\n%s", logs.String())
			}
		})
	}
	t.Run("real espeak-ng, unwritable folder", func(t *testing.T) {
		examplestest.NeedProgram(t, "espeak-ng", "espeak-ng")
		var logs examplestest.SyncBuffer
		sp := &speaker{espeak: "espeak-ng", out: filepath.Join(t.TempDir(), "missing"), voices: map[string]bool{"en-us": true}, log: slog.New(slog.NewTextHandler(&logs, nil))}
		if err := sp.say(t.Context(), sentence{Text: "Hello there.", Language: "en", Seq: 1, TurnID: "t"}); err == nil {
			t.Error("say succeeded, want an error")
		}
		if strings.Contains(logs.String(), "spoke") {
			t.Errorf("logged spoke after a failure:\n%s", logs.String())
		}
	})
}

// fakeEspeak is a program that prints msg on standard error and exits 0,
// as espeak-ng does when it fails.
func fakeEspeak(t *testing.T, msg string) string {
	p := filepath.Join(t.TempDir(), "espeak-ng")
	script := "#!/bin/sh\n"
	if msg != "" {
		script += "cat >&2 <<'EOF'\n" + msg + "\nEOF\n"
	}
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}
