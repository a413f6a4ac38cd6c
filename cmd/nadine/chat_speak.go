package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/bargein"
	"github.com/nadine-robot/nadine/spoken"
)

// The chat's paced speech (--speak WPM): Nadine's sentences come one at a
// time, as fast as a voice would say them, so that a line typed meanwhile
// talks over her as a visitor would (the robot's interruptions, in a
// terminal): a backchannel ("ok", "mhm") lets her go on; anything else
// stops her, the rest of the reply is not said, the history keeps what was,
// and the line is the next turn.

// speaker paces a reply's sentences and watches the lines typed meanwhile.
type speaker struct {
	wpm   int
	judge *bargein.Judge
	lines <-chan string // lines typed, read by the chat's reader
	out   io.Writer
	wait  func(d time.Duration) <-chan time.Time
}

// say prints r's sentences at the speaking rate, so a line typed meanwhile
// interrupts her as speech would; it returns that line and what she had said.
func (s *speaker) say(ctx context.Context, r nadine.Reply) (interrupting string, said []string, cut bool) {
	sentences := spoken.SplitSentences(r.Text)
	fmt.Fprint(s.out, formatReplyHead(r))
	for i, sent := range sentences {
		if i > 0 {
			fmt.Fprint(s.out, " ")
		}
		fmt.Fprint(s.out, sent)
		done := s.wait(sentenceTime(sent, s.wpm))
		for waiting := true; waiting; {
			select {
			case <-ctx.Done():
				fmt.Fprintln(s.out)
				return "", sentences[:i+1], false
			case <-done:
				waiting = false
			case line, ok := <-s.lines:
				if !ok {
					fmt.Fprintln(s.out)
					return "", sentences[:i+1], false
				}
				if strings.HasPrefix(line, "/") || !s.judge.Hear(line, sentences...).Stop {
					continue // a backchannel or a command: she goes on
				}
				fmt.Fprintln(s.out, " — (interrupted)")
				return line, sentences[:i+1], i+1 < len(sentences)
			}
		}
	}
	fmt.Fprintln(s.out)
	return "", sentences, false
}

// sentenceTime at wpm words a minute, a Han character being half a word.
func sentenceTime(s string, wpm int) time.Duration {
	words := 0.0
	for _, f := range strings.Fields(s) {
		cjk := 0
		for _, r := range f {
			if r >= 0x4e00 && r <= 0x9fff {
				cjk++
			}
		}
		if cjk > 0 {
			words += float64(cjk) / 2
		} else {
			words++
		}
	}
	return time.Duration(words / float64(wpm) * float64(time.Minute))
}

// formatReplyHead is formatReply without the text: "Nadine [joy 6]: ".
func formatReplyHead(r nadine.Reply) string {
	full := formatReply(nadine.Reply{Emotion: r.Emotion, EmotionIntensity: r.EmotionIntensity, Gestures: r.Gestures,
		Language: r.Language, Fallback: r.Fallback})
	return full
}
