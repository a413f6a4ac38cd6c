package affect

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/nadine-robot/nadine"
)

// Emotion is Nadine's active emotion; PAD is Label's point, not scaled by
// Intensity.
type Emotion struct {
	Label     nadine.Emotion `json:"label"`
	Intensity float64        `json:"intensity"` // 0..1
	PAD       PAD            `json:"pad"`
}

// MinIntensity is the intensity under which an emotion has faded away: the
// active emotion becomes neutral with intensity 0.
const MinIntensity = 0.05

// Params tunes the dynamics of emotion and mood. A zero field takes its
// default (DefaultParams); a negative field turns its effect off.
type Params struct {
	// PullRate scales how far one appraisal moves the mood: the mood moves
	// intensity·PullRate of the way toward the emotion's PAD point (capped at
	// the whole way). Default 0.3.
	PullRate float64 `json:"pull_rate"`
	// MoodHalfLife is the time in which the mood's distance to the
	// personality baseline halves. Default 15 minutes.
	MoodHalfLife time.Duration `json:"mood_half_life_ns"`
	// MoodTurnDecay is the fraction of the mood's distance to the baseline
	// removed at the end of each turn (0..1). Default 0.1.
	MoodTurnDecay float64 `json:"mood_turn_decay"`
	// EmotionHalfLife is the time in which the emotion's intensity halves.
	// Default 1 minute.
	EmotionHalfLife time.Duration `json:"emotion_half_life_ns"`
	// EmotionTurnDecay is the fraction of the emotion's intensity removed at
	// the end of each turn (0..1). Default 0.3.
	EmotionTurnDecay float64 `json:"emotion_turn_decay"`
}

// DefaultParams: intensity 1 pulls the mood 30% toward the emotion; the mood
// halves toward baseline every 15 min, the emotion every minute.
func DefaultParams() Params {
	return Params{
		PullRate:         0.3,
		MoodHalfLife:     15 * time.Minute,
		MoodTurnDecay:    0.1,
		EmotionHalfLife:  time.Minute,
		EmotionTurnDecay: 0.3,
	}
}

// withDefaults fills zero fields with defaults and turns negative ones off.
func (p Params) withDefaults() Params {
	d := DefaultParams()
	pick := func(v, def float64) float64 {
		switch {
		case v == 0 || math.IsNaN(v):
			return def
		case v < 0:
			return 0
		}
		return v
	}
	pickDur := func(v, def time.Duration) time.Duration {
		switch {
		case v == 0:
			return def
		case v < 0:
			return 0 // off
		}
		return v
	}
	return Params{
		PullRate:         pick(p.PullRate, d.PullRate),
		MoodHalfLife:     pickDur(p.MoodHalfLife, d.MoodHalfLife),
		MoodTurnDecay:    clamp(pick(p.MoodTurnDecay, d.MoodTurnDecay), 0, 1),
		EmotionHalfLife:  pickDur(p.EmotionHalfLife, d.EmotionHalfLife),
		EmotionTurnDecay: clamp(pick(p.EmotionTurnDecay, d.EmotionTurnDecay), 0, 1),
	}
}

// State is Nadine's affect (the graph's affect {personality, emotion, mood,
// params}), persisted per robot as JSON by the caller.
type State struct {
	Personality Personality `json:"personality"`
	Emotion     Emotion     `json:"emotion"`
	Mood        PAD         `json:"mood"`
	Params      Params      `json:"params"`
	Turns       int         `json:"turns"`   // turns completed (Update calls)
	Updated     time.Time   `json:"updated"` // time of the last change; decay runs from here
}

// New returns the state of a personality at rest at time now: neutral
// emotion, mood at the personality's baseline, default parameters.
func New(p Personality, now time.Time) State {
	p = p.Clamp()
	return State{
		Personality: p,
		Emotion:     Emotion{Label: nadine.Neutral},
		Mood:        DefaultMood(p),
		Params:      DefaultParams(),
		Updated:     now,
	}
}

// Baseline returns the mood s returns to when nothing happens: the default
// mood of its personality.
func Baseline(s State) PAD { return DefaultMood(s.Personality) }

// Decay lets the time since s.Updated pass (exponential half-lives); an
// emotion under MinIntensity becomes neutral; a now before Updated is no time.
func Decay(s State, now time.Time) State {
	p := s.Params.withDefaults()
	if !s.Updated.IsZero() && now.After(s.Updated) {
		dt := now.Sub(s.Updated)
		s.Mood = relax(s.Mood, Baseline(s), halfLife(dt, p.MoodHalfLife))
		s.Emotion.Intensity *= halfLife(dt, p.EmotionHalfLife)
	}
	s.Emotion = settle(s.Emotion)
	if s.Updated.IsZero() || now.After(s.Updated) {
		s.Updated = now
	}
	return s
}

// Update ends a turn (the graph's affective_update): Decay, then the
// per-turn decays.
func Update(s State, now time.Time) State {
	s = Decay(s, now)
	p := s.Params.withDefaults()
	s.Mood = relax(s.Mood, Baseline(s), 1-p.MoodTurnDecay)
	s.Emotion.Intensity *= 1 - p.EmotionTurnDecay
	s.Emotion = settle(s.Emotion)
	s.Turns++
	return s
}

// Appraise makes label Nadine's emotion and moves the mood by ALMA's pull
// and push (docs/architecture.md#affect); neutral leaves the mood alone.
func Appraise(s State, label nadine.Emotion, intensity float64, now time.Time) State {
	s = Decay(s, now)
	if !label.Valid() {
		label = nadine.Neutral
	}
	intensity = clamp(intensity, 0, 1)
	if label == nadine.Neutral {
		intensity = 0
	}
	t, _ := EmotionPAD(label)
	s.Emotion = settle(Emotion{Label: label, Intensity: intensity, PAD: t})
	k := clamp(s.Emotion.Intensity*s.Params.withDefaults().PullRate, 0, 1)
	if k == 0 {
		return s
	}
	if sameOctant(s.Mood, t) && s.Mood.Norm() >= t.Norm() {
		s.Mood = s.Mood.add(t.scale(k)).Clamp()
	} else {
		s.Mood = s.Mood.add(t.sub(s.Mood).scale(k)).Clamp()
	}
	return s
}

// halfLife returns the factor that remains after dt with the given
// half-life (1 when the half-life is off).
func halfLife(dt, hl time.Duration) float64 {
	if hl <= 0 || dt <= 0 {
		return 1
	}
	return math.Exp2(-float64(dt) / float64(hl))
}

// relax moves m toward base, keeping the fraction keep of its distance.
func relax(m, base PAD, keep float64) PAD {
	if keep >= 1 {
		return m
	}
	return base.add(m.sub(base).scale(clamp(keep, 0, 1))).Clamp()
}

// settle makes an emotion consistent: a valid label, intensity in 0..1, the
// label's PAD point, and neutral under MinIntensity.
func settle(e Emotion) Emotion {
	e.Intensity = clamp(e.Intensity, 0, 1)
	pad, ok := EmotionPAD(e.Label)
	if !ok || e.Label == nadine.Neutral || e.Intensity < MinIntensity {
		return Emotion{Label: nadine.Neutral}
	}
	e.PAD = pad
	return e
}

// Arousal returns the felt arousal of the active emotion: its PAD arousal
// weighted by its intensity (-1..1; 0 when neutral).
func Arousal(s State) float64 {
	e := settle(s.Emotion)
	return e.PAD.A * e.Intensity
}

// Describe renders the state for a prompt: "moderately relaxed mood;
// feeling joy (intensity 0.6)".
func Describe(s State) string {
	mood := MoodLabel(s.Mood) + " mood"
	e := settle(s.Emotion)
	if e.Label == nadine.Neutral {
		return mood + "; no particular emotion"
	}
	return fmt.Sprintf("%s; feeling %s (intensity %s)", mood, e.Label, formatIntensity(e.Intensity))
}

func formatIntensity(x float64) string {
	return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64)
}

// ToBus returns the state as the robot bus and the monitor show it.
func ToBus(s State) nadine.AffectState {
	e := settle(s.Emotion)
	return nadine.AffectState{
		Label:       e.Label,
		Intensity:   e.Intensity,
		Arousal:     Arousal(s),
		Pleasure:    s.Mood.P,
		Dominance:   s.Mood.D,
		MoodArousal: s.Mood.A,
		MoodLabel:   MoodLabel(s.Mood),
	}
}
