package tools

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode"

	"github.com/nadine-robot/nadine"
)

// DefaultBehaviourWait is how long Nadine behaviour waits after starting a
// gesture, so that the animation plays before Nadine speaks.
const DefaultBehaviourWait = 2 * time.Second

// BehaviourConfig configures Nadine behaviour. The zero value gives the
// defaults.
type BehaviourConfig struct {
	// Wait is the pause after the gesture; zero means DefaultBehaviourWait,
	// negative means no pause.
	Wait time.Duration
	// Sleep pauses for d or until ctx is done, returning ctx's error in the
	// latter case; default SleepContext. Tests inject a recorder.
	Sleep func(ctx context.Context, d time.Duration) error
}

// SleepContext pauses for d, or until ctx is done; it returns ctx.Err() when
// ctx ended first.
func SleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Behaviour is the Nadine behaviour tool: smile, anger or wave.
type Behaviour struct {
	wait   time.Duration
	sleep  func(context.Context, time.Duration) error
	logger *slog.Logger
}

var _ nadine.Tool = (*Behaviour)(nil)

// NewBehaviour returns the Nadine behaviour tool.
func NewBehaviour(cfg BehaviourConfig, logger *slog.Logger) *Behaviour {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	b := &Behaviour{wait: cfg.Wait, sleep: cfg.Sleep, logger: logger}
	if b.wait == 0 {
		b.wait = DefaultBehaviourWait
	}
	if b.sleep == nil {
		b.sleep = SleepContext
	}
	return b
}

// Name returns "Nadine behaviour".
func (b *Behaviour) Name() string { return NameBehaviour }

// Description says when to use the tool.
func (b *Behaviour) Description() string {
	return "Use it when the human asks you to smile, to be or look angry, or to wave. " +
		"Input: exactly one of smile, anger, wave."
}

// gestureWords maps the words that name a gesture, in the languages Nadine
// speaks, to the gesture.
var gestureWords = map[string]nadine.Gesture{
	"smile": nadine.Smile, "smiles": nadine.Smile, "smiling": nadine.Smile, "smiley": nadine.Smile,
	"sourire": nadine.Smile, "souris": nadine.Smile, "souriez": nadine.Smile, "lächeln": nadine.Smile, "lächle": nadine.Smile, "微笑": nadine.Smile, "笑": nadine.Smile,
	"anger": nadine.AngerFace, "angry": nadine.AngerFace, "angrily": nadine.AngerFace, "mad": nadine.AngerFace, "furious": nadine.AngerFace,
	"colère": nadine.AngerFace, "colere": nadine.AngerFace, "fâchée": nadine.AngerFace, "fachee": nadine.AngerFace, "wütend": nadine.AngerFace, "wut": nadine.AngerFace, "böse": nadine.AngerFace, "生气": nadine.AngerFace, "愤怒": nadine.AngerFace,
	"wave": nadine.Wave, "waves": nadine.Wave, "waving": nadine.Wave,
	"salue": nadine.Wave, "saluez": nadine.Wave, "saluer": nadine.Wave, "winken": nadine.Wave, "winke": nadine.Wave, "挥手": nadine.Wave,
}

// gestureSentence is what Nadine says once the gesture has started.
var gestureSentence = map[nadine.Gesture]string{
	nadine.Smile:     "I am smiling now",
	nadine.AngerFace: "I am angry now",
	nadine.Wave:      "I am waving at you now",
}

// parseGesture finds the first word of s that names a gesture.
func parseGesture(s string) (nadine.Gesture, bool) {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
	for _, w := range words {
		if g, ok := gestureWords[w]; ok {
			return g, true
		}
	}
	// Chinese is not separated by spaces.
	for _, w := range []string{"微笑", "生气", "愤怒", "挥手"} {
		if strings.Contains(s, w) {
			return gestureWords[w], true
		}
	}
	return "", false
}

// Call plays the gesture in.Text, waits for it, and returns what Nadine
// says; unknown input gets an observation listing the gestures.
func (b *Behaviour) Call(ctx context.Context, in nadine.ToolInput) (string, error) {
	g, ok := parseGesture(cleanInput(in.Text))
	if !ok {
		return "You can only smile, show anger or wave. Tell the human that these are the three things you can do with your face and hands.", nil
	}
	emit(in, nadine.Event{Kind: nadine.EventGesture, Gesture: g})
	b.logger.DebugContext(ctx, "gesture", "gesture", g)
	if b.wait > 0 {
		if err := b.sleep(ctx, b.wait); err != nil {
			return "", fmt.Errorf("behaviour: wait for %s: %w", g, err)
		}
	}
	return fmt.Sprintf("Tell the human '%s'.", gestureSentence[g]), nil
}

// emit sends ev through in.Emit when there is one.
func emit(in nadine.ToolInput, ev nadine.Event) {
	if in.Emit != nil {
		in.Emit(ev)
	}
}
