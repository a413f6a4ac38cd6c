// Command perception-sim plays nadine's perception process on a schedule, so
// a lab can run `nadine serve` without a camera: people are recognized, show
// emotions and leave; with --say they speak as speech-to-text would, and with
// --talk-over talk over her. Topics and flags: README.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/nadine-robot/nadine/examples/internal/busclient"
)

type detected struct {
	UserName   string  `json:"user_name"`
	UserID     string  `json:"user_id"`
	Confidence float64 `json:"confidence"`
}

type emotion struct {
	Emotion string `json:"emotion"`
}

type left struct {
	UserID string `json:"user_id"`
}

func main() { busclient.Main("perception-sim", run) }

// schedule is what the simulator does, read from the flags.
type schedule struct {
	people   []string
	emotions []string
	every    time.Duration // between two emotions
	stay     time.Duration // how long a person stays
	gap      time.Duration // between a person leaving and the next coming
	rounds   int           // people to play, 0 = forever
	voice    *voice        // what each person says; nil: nothing
}

// run is the program, until ctx is done or the rounds are played.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs, url, prefix := busclient.Flags("perception-sim", stderr)
	people := fs.String("people", "Alex,Robin", "the people who come, in turn (comma-separated names)")
	emotions := fs.String("emotions", "happy,neutral,surprise", "the facial emotions each person shows, in turn")
	every := fs.Duration("every", 5*time.Second, "time between two emotions")
	stay := fs.Duration("stay", 30*time.Second, "how long each person stays")
	gap := fs.Duration("gap", 10*time.Second, "time between a person leaving and the next coming")
	rounds := fs.Int("rounds", 0, "people to play before stopping (0: forever)")
	say := fs.String("say", "", "what each person says, line after line, separated by |")
	language := fs.String("language", "en", "the language of the lines said (en, fr, de, zh)")
	talkOver := fs.Duration("talk-over", 0, "say the next line this long after Nadine starts answering, interrupting her (0: wait until she has finished)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	s := schedule{people: split(*people), emotions: split(*emotions), every: *every, stay: *stay, gap: *gap, rounds: *rounds}
	if len(s.people) == 0 || s.every <= 0 || s.stay <= 0 || s.gap < 0 || s.rounds < 0 || *talkOver < 0 {
		return fmt.Errorf("need at least one person, positive --every and --stay, --gap, --rounds and --talk-over not negative")
	}
	var topics []string
	var heard busclient.Handler
	if lines := splitBy(*say, "|"); len(lines) > 0 {
		s.voice = newVoice(lines, *language, *talkOver)
		topics, heard = []string{busclient.TopicSpeak, busclient.TopicStop}, s.voice.heard
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	c, err := busclient.Connect(ctx, *url, *prefix, "perception-sim", topics, heard)
	if err != nil {
		return err
	}
	defer c.Close(context.Background())
	log.Info("perception-sim: connected", "url", *url, "prefix", *prefix)
	return s.play(ctx, c, log)
}

// play runs the schedule: each person is detected, shows the emotions in
// turn every s.every while they stay, and leaves.
func (s schedule) play(ctx context.Context, c *busclient.Client, log *slog.Logger) error {
	pub := func(topic string, v any) error { return publish(ctx, c, log, topic, v) }
	wait := func(d time.Duration) error { return sleep(ctx, d) }
	for round := 0; s.rounds == 0 || round < s.rounds; round++ {
		name := s.people[round%len(s.people)]
		id := userID(name)
		if err := pub(busclient.TopicUserDetected, detected{UserName: name, UserID: id, Confidence: 0.93}); err != nil {
			return err
		}
		stopTalking := s.speak(ctx, c, id, log)
		for i, shown := 0, time.Duration(0); shown < s.stay; i, shown = i+1, shown+s.every {
			if len(s.emotions) > 0 {
				if err := pub(busclient.TopicUserEmotion, emotion{Emotion: s.emotions[i%len(s.emotions)]}); err != nil {
					stopTalking()
					return err
				}
			}
			if err := wait(min(s.every, s.stay-shown)); err != nil {
				stopTalking()
				return err
			}
		}
		if err := stopTalking(); err != nil {
			return err
		}
		if err := pub(busclient.TopicUserLeft, left{UserID: id}); err != nil {
			return err
		}
		if s.rounds != 0 && round == s.rounds-1 {
			break
		}
		if err := wait(s.gap); err != nil {
			return err
		}
	}
	return nil
}

// speak has the person say the lines while they stay; the returned func
// stops them and returns the error that stopped them otherwise.
func (s schedule) speak(ctx context.Context, c *busclient.Client, who string, log *slog.Logger) func() error {
	if s.voice == nil {
		return func() error { return nil }
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- s.voice.talk(ctx, c, who, log) }()
	return func() error {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		return nil
	}
}

// publish sends v as JSON on topic (relative to the prefix) and logs it.
func publish(ctx context.Context, c *busclient.Client, log *slog.Logger, topic string, v any) error {
	b, _ := json.Marshal(v)
	if err := c.Publish(ctx, topic, b); err != nil {
		return err
	}
	log.Info("published", "topic", c.Topic(topic), "payload", string(b))
	return nil
}

// userID is the id perception would give a name: lower case, spaces as
// underscores.
func userID(name string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), " ", "_")
}

func split(s string) []string { return splitBy(s, ",") }

func splitBy(s, sep string) []string {
	var out []string
	for _, p := range strings.Split(s, sep) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
