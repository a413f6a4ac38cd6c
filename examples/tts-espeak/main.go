// Command tts-espeak is a reference text-to-speech bridge: it speaks nadine's
// sentences with espeak-ng in each sentence's locale, reports start, spoken
// and end, and stops when nadine is interrupted. With --out it writes WAV
// files instead (no sound card); --pace keeps a robot's timing. See README.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

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
	pace := fs.Bool("pace", false, "with --out, take as long as each WAV file would take to play (a stop then cuts it, as on a robot)")
	espeak := fs.String("espeak", "espeak-ng", "the espeak-ng program")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	voices, err := listVoices(ctx, *espeak)
	if err != nil {
		return err
	}
	sp := &speaker{espeak: *espeak, out: *out, pace: *pace, voices: voices, log: log}
	queue := make(chan sentence, 64)
	stops := make(chan stopCommand, 8)
	c, err := busclient.Connect(ctx, *url, *prefix, "tts-espeak", []string{busclient.TopicSpeak, busclient.TopicStop}, func(topic string, payload []byte) {
		if strings.HasSuffix(topic, "/"+busclient.TopicStop) {
			var st stopCommand
			if err := json.Unmarshal(payload, &st); err != nil {
				log.Warn("stop: not a stop command", "err", err, "bytes", len(payload))
				return
			}
			select {
			case stops <- st:
			case <-ctx.Done():
			}
			return
		}
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
	b := &bridge{c: c, sp: sp, log: log}
	err = b.loop(ctx, queue, stops)
	return errors.Join(err, c.Close(context.Background()))
}

// stopCommand is the JSON payload of agent/control/stop.
type stopCommand struct {
	TurnID string `json:"turn_id"`
	Reason string `json:"reason"`
}

// report is the JSON payload of agent/feedback/spoken.
type report struct {
	TurnID string `json:"turn_id"`
	Seq    int    `json:"seq"`
	Cut    bool   `json:"cut,omitempty"`
	Words  *int   `json:"words,omitempty"`
}

// bridge speaks one sentence at a time, in the order they came, and stops
// when nadine says so.
type bridge struct {
	c        *busclient.Client
	sp       *speaker
	log      *slog.Logger
	pending  []sentence // arrived, not yet spoken, in order
	speaking string     // the turn spoken now, between start_speak and end_speak
}

// loop speaks the queued sentences; a stop cuts the turn's sentence and
// drops its queued ones, but later ones (a resumed reply) are spoken.
func (b *bridge) loop(ctx context.Context, queue <-chan sentence, stops <-chan stopCommand) error {
	for {
		if len(b.pending) == 0 {
			select {
			case <-ctx.Done():
				return nil
			case st := <-stops:
				b.stop(ctx, st, nil, queue)
			case s := <-queue:
				b.pending = append(b.pending, s)
			}
			continue
		}
		s := b.pending[0]
		b.pending = b.pending[1:]
		if b.speaking != "" && b.speaking != s.TurnID {
			b.feedback(ctx, busclient.TopicEndSpeak, feedback{TurnID: b.speaking})
			b.speaking = ""
		}
		if b.speaking == "" && strings.TrimSpace(s.Text) != "" {
			b.speaking = s.TurnID
			b.feedback(ctx, busclient.TopicStartSpeak, feedback{TurnID: s.TurnID, Seq: s.Seq})
		}
		if cut := b.say(ctx, s, stops, queue); cut {
			continue
		}
		if b.speaking != "" && s.Final {
			b.feedback(ctx, busclient.TopicEndSpeak, feedback{TurnID: s.TurnID, Seq: s.Seq})
			b.speaking = ""
		}
	}
}

// say speaks s while taking new sentences and watching for a stop; it
// reports whether s was cut.
func (b *bridge) say(ctx context.Context, s sentence, stops <-chan stopCommand, queue <-chan sentence) bool {
	if strings.TrimSpace(s.Text) == "" {
		return false
	}
	sayCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- b.sp.say(sayCtx, s) }()
	for {
		select {
		case err := <-done:
			if err != nil {
				b.log.Warn("speak failed", "seq", s.Seq, "err", err)
				return false
			}
			b.report(ctx, report{TurnID: s.TurnID, Seq: s.Seq})
			return false
		case n := <-queue:
			b.pending = append(b.pending, n)
		case st := <-stops:
			if st.TurnID != s.TurnID {
				b.stop(ctx, st, nil, queue)
				continue
			}
			cancel()
			<-done
			b.stop(ctx, st, &cutAt{seq: s.Seq, words: b.sp.wordsSaid(s.Text, time.Since(start))}, queue)
			return true
		}
	}
}

// cutAt is where a stop cut a sentence.
type cutAt struct{ seq, words int }

// stop ends the turn st names: the sentence being said reported cut (with
// the words said), its queued sentences dropped, end_speak sent.
func (b *bridge) stop(ctx context.Context, st stopCommand, cut *cutAt, queue <-chan sentence) {
	if cut != nil {
		b.report(ctx, report{TurnID: st.TurnID, Seq: cut.seq, Cut: true, Words: &cut.words})
	}
	for more := true; more; {
		select {
		case s := <-queue:
			b.pending = append(b.pending, s)
		default:
			more = false
		}
	}
	kept := b.pending[:0]
	for _, s := range b.pending {
		if s.TurnID != st.TurnID {
			kept = append(kept, s)
		}
	}
	dropped := len(b.pending) - len(kept)
	b.pending = kept
	b.log.Info("stopped", "turn", st.TurnID, "reason", st.Reason, "dropped", dropped, "cut", cut != nil)
	if b.speaking == st.TurnID {
		b.feedback(ctx, busclient.TopicEndSpeak, feedback{TurnID: st.TurnID})
		b.speaking = ""
	}
}

func (b *bridge) feedback(ctx context.Context, topic string, f feedback) {
	p, _ := json.Marshal(f)
	if err := b.c.Publish(ctx, topic, p); err != nil {
		b.log.Warn("feedback not published", "topic", topic, "err", err)
	}
}

func (b *bridge) report(ctx context.Context, r report) {
	p, _ := json.Marshal(r)
	if err := b.c.Publish(ctx, busclient.TopicSpoken, p); err != nil {
		b.log.Warn("spoken report not published", "err", err)
	}
}

// speaker runs espeak-ng.
type speaker struct {
	espeak string
	out    string
	pace   bool // with out: wait as long as the audio lasts
	voices map[string]bool
	log    *slog.Logger
}

// wordsPerSecond is espeak-ng's default speaking rate (175 words a
// minute), for how much of a cut sentence was said.
const wordsPerSecond = 175.0 / 60

// wordsSaid estimates how many words of text were said in d.
func (sp *speaker) wordsSaid(text string, d time.Duration) int {
	return min(len(strings.Fields(text)), int(d.Seconds()*wordsPerSecond))
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
	b, err := cmd.CombinedOutput()
	if err == nil {
		err = espeakFailed(b)
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w: %s", sp.espeak, strings.Join(args[:2], " "), err, strings.TrimSpace(string(b)))
	}
	if sp.out != "" {
		wav := filepath.Join(sp.out, fmt.Sprintf("%s-%03d.wav", safeName(s.TurnID), s.Seq))
		if st, err := os.Stat(wav); err != nil || st.Size() <= wavHeader {
			return fmt.Errorf("%s wrote no audio to %s", sp.espeak, wav)
		}
		if sp.pace {
			if err := sp.play(ctx, wav); err != nil {
				return err
			}
		}
	}
	sp.log.Info("spoke", "voice", voice, "seq", s.Seq, "filler", s.Filler, "chars", len(text))
	return nil
}

// wavHeader is the size of the header of espeak-ng's WAV files: a file no
// larger holds no audio.
const wavHeader = 44

// espeakFailed reads espeak-ng's output, since it exits 0 when it cannot
// open the sound device (and prints nothing when it speaks).
func espeakFailed(out []byte) error {
	for _, line := range strings.Split(string(out), "\n") {
		l := strings.ToLower(strings.TrimSpace(line))
		if strings.HasPrefix(l, "error") || strings.HasPrefix(l, "can't") || strings.HasPrefix(l, "alsa lib") {
			return errors.New("exit status 0, but it reported a failure")
		}
	}
	return nil
}

// play waits as long as a WAV file lasts (espeak-ng writes 16-bit mono
// at 22,050 Hz), or until ctx is done.
func (sp *speaker) play(ctx context.Context, wav string) error {
	st, err := os.Stat(wav)
	if err != nil {
		return err
	}
	const bytesPerSecond = 22050 * 2
	t := time.NewTimer(time.Duration(float64(max(st.Size()-wavHeader, 0)) / bytesPerSecond * float64(time.Second)))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// chooseVoice maps a locale to an espeak-ng voice ("zh-CN" → "cmn"), falling
// back to the language, then English.
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
