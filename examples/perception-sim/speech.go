package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/nadine-robot/nadine/examples/internal/busclient"
)

// The visitor's voice: with --say, each person who comes says the lines in
// turn, as a speech-to-text process would publish them (voice activity,
// interim transcripts growing word by word, the final one); with
// --talk-over, the next line starts that long after Nadine starts
// answering, so that she is interrupted.

// wordEvery is the pace of interim transcripts, a word at a time.
const wordEvery = 150 * time.Millisecond

// voice follows what Nadine says (from her speak and stop messages) and
// says a visitor's lines.
type voice struct {
	lines    []string
	language string
	talkOver time.Duration // 0: wait until she has finished
	pause    time.Duration // after she finished, before the next line
	replyMax time.Duration // how long to wait for her to start or finish

	mu       sync.Mutex
	speaking bool
	changed  chan struct{} // closed and replaced when speaking changes
}

func newVoice(lines []string, language string, talkOver time.Duration) *voice {
	return &voice{lines: lines, language: language, talkOver: talkOver, pause: time.Second,
		replyMax: 30 * time.Second, changed: make(chan struct{})}
}

// heard is the bus handler: a sentence means she speaks, the final one or a
// stop that she is done.
func (v *voice) heard(topic string, payload []byte) {
	var m struct {
		Final bool `json:"final"`
	}
	_ = json.Unmarshal(payload, &m)
	speaking := strings.HasSuffix(topic, busclient.TopicSpeak) && !m.Final
	v.mu.Lock()
	defer v.mu.Unlock()
	if speaking != v.speaking {
		v.speaking = speaking
		close(v.changed)
		v.changed = make(chan struct{})
	}
}

// waitSpeaking waits until she speaks (want true) or not, for at most d.
func (v *voice) waitSpeaking(ctx context.Context, want bool, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		v.mu.Lock()
		now, changed := v.speaking, v.changed
		v.mu.Unlock()
		if now == want {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			return nil // she said nothing (or never finished): go on
		case <-changed:
		}
	}
}

// talk says the lines, one after another, until they are said or ctx is
// done (the person left).
func (v *voice) talk(ctx context.Context, c *busclient.Client, who string, log *slog.Logger) error {
	for i, line := range v.lines {
		if err := v.say(ctx, c, who, i, line, log); err != nil {
			return err
		}
		if i == len(v.lines)-1 {
			return nil
		}
		if err := v.waitSpeaking(ctx, true, v.replyMax); err != nil {
			return err
		}
		if v.talkOver > 0 {
			if err := sleep(ctx, v.talkOver); err != nil {
				return err
			}
			continue
		}
		if err := v.waitSpeaking(ctx, false, v.replyMax); err != nil {
			return err
		}
		if err := sleep(ctx, v.pause); err != nil {
			return err
		}
	}
	return nil
}

// say publishes one line as speech-to-text would.
func (v *voice) say(ctx context.Context, c *busclient.Client, who string, n int, line string, log *slog.Logger) error {
	pub := func(topic string, p any) error { return publish(ctx, c, log, topic, p) }
	if err := pub(busclient.TopicSpeechStart, map[string]any{"time": time.Now().UTC().Format(time.RFC3339Nano)}); err != nil {
		return err
	}
	words := strings.Fields(line)
	for i := 1; i < len(words); i++ {
		if err := sleep(ctx, wordEvery); err != nil {
			return err
		}
		if err := pub(busclient.TopicTranscript, transcript{Text: strings.Join(words[:i], " "), Language: v.language}); err != nil {
			return err
		}
	}
	if err := sleep(ctx, wordEvery); err != nil {
		return err
	}
	return pub(busclient.TopicTranscript, transcript{Text: line, Language: v.language, Final: true,
		ID: fmt.Sprintf("sim-%s-%d-%d", who, time.Now().UnixNano(), n)})
}

// transcript is speech-to-text's message.
type transcript struct {
	Text     string `json:"text"`
	Language string `json:"language,omitempty"`
	Final    bool   `json:"final"`
	ID       string `json:"id,omitempty"`
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
