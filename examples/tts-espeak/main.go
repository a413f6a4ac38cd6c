// Command tts-espeak is a reference text-to-speech bridge for nadine: it
// speaks each sentence nadine publishes on <prefix>/agent/control/speak
// with espeak-ng (Debian: apt-get install espeak-ng), in the voice of the
// sentence's locale, and tells nadine when it speaks, so that listening is
// suspended meanwhile:
//
//	<prefix>/agent/feedback/start_speak   before the first sentence of a turn
//	<prefix>/agent/feedback/end_speak     after the turn's final sentence
//
// Usage:
//
//	tts-espeak [--url mqtt://127.0.0.1:1883] [--prefix nadine] [--out DIR]
//
// With --out the sentences are written as WAV files into DIR instead of
// played (a machine without a sound card, or tests). See README.md.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/nadine-robot/nadine/examples/internal/busclient"
)

// sentence is the JSON payload of agent/control/speak.
type sentence struct {
	Text     string `json:"text"`
	Language string `json:"language"`
	Locale   string `json:"locale"`
	Seq      int    `json:"seq"`
	Final    bool   `json:"final"`
	TurnID   string `json:"turn_id"`
	Filler   bool   `json:"filler"`
}

// feedback is the payload the bridge publishes on start_speak and
// end_speak (nadine accepts any payload there).
type feedback struct {
	TurnID string `json:"turn_id"`
	Seq    int    `json:"seq"`
}

func main() { busclient.Main("tts-espeak", run) }

// run is the program, until ctx is done.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs, url, prefix := busclient.Flags("tts-espeak", stderr)
	out := fs.String("out", "", "write each sentence as a WAV file in this folder instead of playing it")
	espeak := fs.String("espeak", "espeak-ng", "the espeak-ng program")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	voices, err := listVoices(ctx, *espeak)
	if err != nil {
		return err
	}
	sp := &speaker{espeak: *espeak, out: *out, voices: voices, log: log}
	queue := make(chan sentence, 64)
	c, err := busclient.Connect(ctx, *url, *prefix, "tts-espeak", []string{busclient.TopicSpeak}, func(_ string, payload []byte) {
		var s sentence
		if err := json.Unmarshal(payload, &s); err != nil {
			log.Warn("speak: not a sentence", "err", err, "bytes", len(payload))
			return
		}
		select {
		case queue <- s:
		case <-ctx.Done():
		}
	})
	if err != nil {
		return err
	}
	log.Info("tts-espeak: listening", "topic", c.Topic(busclient.TopicSpeak), "voices", len(voices))
	// One sentence at a time, in the order they came.
	speaking := false
	for {
		select {
		case <-ctx.Done():
			return c.Close(context.Background())
		case s := <-queue:
			if !speaking && strings.TrimSpace(s.Text) != "" {
				speaking = true
				publishFeedback(ctx, c, busclient.TopicStartSpeak, s, log)
			}
			if err := sp.say(ctx, s); err != nil {
				log.Warn("speak failed", "seq", s.Seq, "err", err)
			}
			if speaking && s.Final {
				speaking = false
				publishFeedback(ctx, c, busclient.TopicEndSpeak, s, log)
			}
		}
	}
}

func publishFeedback(ctx context.Context, c *busclient.Client, topic string, s sentence, log *slog.Logger) {
	b, _ := json.Marshal(feedback{TurnID: s.TurnID, Seq: s.Seq})
	if err := c.Publish(ctx, topic, b); err != nil {
		log.Warn("feedback not published", "topic", topic, "err", err)
	}
}

// speaker runs espeak-ng.
type speaker struct {
	espeak string
	out    string
	voices map[string]bool
	log    *slog.Logger
}

// say speaks one sentence (or writes it to a WAV file); an empty sentence,
// such as the final one that only ends a turn, says nothing.
func (sp *speaker) say(ctx context.Context, s sentence) error {
	text := strings.TrimSpace(s.Text)
	if text == "" {
		return nil
	}
	voice := chooseVoice(s.Locale, s.Language, sp.voices)
	args := []string{"-v", voice}
	if sp.out != "" {
		name := fmt.Sprintf("%s-%03d.wav", safeName(s.TurnID), s.Seq)
		args = append(args, "-w", filepath.Join(sp.out, name))
	}
	// "--" so that a sentence starting with "-" is not read as a flag.
	args = append(args, "--", text)
	cmd := exec.CommandContext(ctx, sp.espeak, args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %w: %s", sp.espeak, strings.Join(args[:2], " "), err, strings.TrimSpace(string(b)))
	}
	sp.log.Info("spoke", "voice", voice, "seq", s.Seq, "filler", s.Filler, "chars", len(text))
	return nil
}

// chooseVoice picks espeak-ng's voice for a locale ("fr-FR" → "fr-fr",
// "de-DE" → "de", "zh-CN" → "cmn"), falling back to the language, then to
// English.
func chooseVoice(locale, language string, voices map[string]bool) string {
	locale = strings.ToLower(strings.ReplaceAll(locale, "_", "-"))
	lang, _, _ := strings.Cut(locale, "-")
	if lang == "" {
		lang = strings.ToLower(language)
	}
	for _, v := range []string{locale, lang, map[string]string{"zh": "cmn"}[lang]} {
		if v != "" && voices[v] {
			return v
		}
	}
	if voices["en-us"] {
		return "en-us"
	}
	return "en"
}

// listVoices reads the voice names espeak-ng has.
func listVoices(ctx context.Context, espeak string) (map[string]bool, error) {
	b, err := exec.CommandContext(ctx, espeak, "--voices").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --voices: %w (Debian: apt-get install espeak-ng)", espeak, err)
	}
	voices := map[string]bool{}
	for i, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if i == 0 || len(f) < 2 {
			continue // the header
		}
		voices[strings.ToLower(f[1])] = true
	}
	return voices, nil
}

// safeName keeps a turn id usable as a file name.
func safeName(s string) string {
	if s == "" {
		return "turn"
	}
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			return r
		}
		return '_'
	}, s)
}
