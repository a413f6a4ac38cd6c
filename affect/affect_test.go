package affect_test

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func nearPAD(a, b affect.PAD) bool { return near(a.P, b.P) && near(a.A, b.A) && near(a.D, b.D) }

var t0 = time.Date(2025, 3, 14, 9, 0, 0, 0, time.UTC)

func TestDefaultMood(t *testing.T) {
	tests := []struct {
		name string
		p    affect.Personality
		want affect.PAD
	}{
		{"average", affect.Personality{}, affect.PAD{}},
		{"openness", affect.Personality{Openness: 1}, affect.PAD{0, 0.15, 0.25}},
		{"conscientiousness", affect.Personality{Conscientiousness: 1}, affect.PAD{0, 0, 0.17}},
		{"extraversion", affect.Personality{Extraversion: 1}, affect.PAD{0.21, 0, 0.60}},
		{"agreeableness", affect.Personality{Agreeableness: 1}, affect.PAD{0.59, 0.30, -0.32}},
		// Neuroticism is the opposite of Mehrabian's emotional stability:
		// a neurotic personality is unpleasant and aroused.
		{"neuroticism", affect.Personality{Neuroticism: 1}, affect.PAD{-0.19, 0.57, 0}},
		{"stable", affect.Personality{Neuroticism: -1}, affect.PAD{0.19, -0.57, 0}},
		{"introvert", affect.Personality{Extraversion: -0.5}, affect.PAD{-0.105, 0, -0.30}},
		// P = .21+.59+.19, A = .15+.30-.57, D = .25+.17+.60-.32
		{"all good", affect.Personality{1, 1, 1, 1, -1}, affect.PAD{0.99, -0.12, 0.70}},
		// A = .15 + .30 + .57 = 1.02, clamped to 1.
		{"arousal clamped", affect.Personality{Openness: 1, Agreeableness: 1, Neuroticism: 1}, affect.PAD{0.40, 1, -0.07}},
		{"traits clamped", affect.Personality{Extraversion: 5}, affect.PAD{0.21, 0, 0.60}},
		{"nadine", affect.NadinePersonality(), affect.PAD{
			0.21*0.6 + 0.59*0.8 + 0.19*0.6,
			0.15*0.4 + 0.30*0.8 - 0.57*0.6,
			0.25*0.4 + 0.17*0.5 + 0.60*0.6 - 0.32*0.8,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := affect.DefaultMood(tt.p); !nearPAD(got, tt.want) {
				t.Errorf("DefaultMood(%+v) = %+v, want %+v", tt.p, got, tt.want)
			}
		})
	}
}

func TestNadineBaseline(t *testing.T) {
	m := affect.DefaultMood(affect.NadinePersonality())
	if got, want := affect.MoodLabel(m), "moderately relaxed"; got != want {
		t.Errorf("Nadine's baseline mood = %q (%+v), want %q", got, m, want)
	}
	if m.P <= 0.5 {
		t.Errorf("Nadine's baseline pleasure = %v, want clearly pleasant", m.P)
	}
}

func TestEmotionPAD(t *testing.T) {
	tests := []struct {
		e      nadine.Emotion
		want   affect.PAD
		wantOK bool
	}{
		{nadine.Joy, affect.PAD{0.40, 0.20, 0.10}, true},
		{nadine.Sadness, affect.PAD{-0.40, -0.20, -0.50}, true},
		{nadine.Fear, affect.PAD{-0.64, 0.60, -0.43}, true},
		{nadine.Disgust, affect.PAD{-0.40, 0.20, 0.10}, true},
		{nadine.Anger, affect.PAD{-0.51, 0.59, 0.25}, true},
		{nadine.Surprise, affect.PAD{0.40, 0.67, -0.13}, true},
		{nadine.Neutral, affect.PAD{}, true},
		{"boredom", affect.PAD{}, false},
		{"", affect.PAD{}, false},
	}
	for _, tt := range tests {
		got, ok := affect.EmotionPAD(tt.e)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("EmotionPAD(%q) = %+v, %v; want %+v, %v", tt.e, got, ok, tt.want, tt.wantOK)
		}
	}
	// Every emotion a reply may carry has a point.
	for _, e := range nadine.Emotions() {
		if p, ok := affect.EmotionPAD(e); !ok || p == (affect.PAD{}) {
			t.Errorf("EmotionPAD(%q) = %+v, %v; want a point", e, p, ok)
		}
	}
}

func TestOctant(t *testing.T) {
	tests := []struct {
		m    affect.PAD
		want string
	}{
		{affect.PAD{1, 1, 1}, affect.Exuberant},
		{affect.PAD{-1, -1, -1}, affect.Bored},
		{affect.PAD{1, 1, -1}, affect.Dependent},
		{affect.PAD{-1, -1, 1}, affect.Disdainful},
		{affect.PAD{1, -1, 1}, affect.Relaxed},
		{affect.PAD{-1, 1, -1}, affect.Anxious},
		{affect.PAD{1, -1, -1}, affect.Docile},
		{affect.PAD{-1, 1, 1}, affect.Hostile},
		{affect.PAD{}, affect.NeutralMood},
		{affect.PAD{0.2, -0.1, 0}, affect.Relaxed}, // zero counts as positive
		{affect.PAD{0, 0, -0.3}, affect.Dependent}, // +P +A -D
		{affect.PAD{-0.01, 0.02, 0.01}, affect.Hostile},
	}
	for _, tt := range tests {
		if got := affect.Octant(tt.m); got != tt.want {
			t.Errorf("Octant(%+v) = %q, want %q", tt.m, got, tt.want)
		}
	}
}

func TestStrength(t *testing.T) {
	tests := []struct {
		m    affect.PAD
		want string
	}{
		{affect.PAD{}, ""},
		// On the diagonal (x, x, x) the distance over √3 is x.
		{affect.PAD{0.33, 0.33, 0.33}, affect.Slightly},
		{affect.PAD{0.34, 0.34, 0.34}, affect.Moderately},
		{affect.PAD{-0.66, 0.66, -0.66}, affect.Moderately},
		{affect.PAD{0.67, -0.67, 0.67}, affect.Fully},
		{affect.PAD{1, 1, 1}, affect.Fully},
		// On one axis: 1/√3 ≈ 0.577 of the maximum distance.
		{affect.PAD{0.57, 0, 0}, affect.Slightly},
		{affect.PAD{0, 0.58, 0}, affect.Moderately},
		{affect.PAD{0, 0, -1}, affect.Moderately},
	}
	for _, tt := range tests {
		if got := affect.Strength(tt.m); got != tt.want {
			t.Errorf("Strength(%+v) = %q, want %q", tt.m, got, tt.want)
		}
	}
}

func TestMoodLabel(t *testing.T) {
	tests := []struct {
		m    affect.PAD
		want string
	}{
		{affect.PAD{}, "neutral"},
		{affect.PAD{0.1, 0.1, 0.1}, "slightly exuberant"},
		{affect.PAD{-0.5, 0.5, -0.5}, "moderately anxious"},
		{affect.PAD{-0.9, -0.9, 0.9}, "fully disdainful"},
	}
	for _, tt := range tests {
		if got := affect.MoodLabel(tt.m); got != tt.want {
			t.Errorf("MoodLabel(%+v) = %q, want %q", tt.m, got, tt.want)
		}
	}
}

func TestNew(t *testing.T) {
	s := affect.New(affect.NadinePersonality(), t0)
	if got, want := s.Mood, affect.DefaultMood(affect.NadinePersonality()); got != want {
		t.Errorf("New mood = %+v, want baseline %+v", got, want)
	}
	if got, want := s.Emotion, (affect.Emotion{Label: nadine.Neutral}); got != want {
		t.Errorf("New emotion = %+v, want %+v", got, want)
	}
	if got, want := s.Params, affect.DefaultParams(); got != want {
		t.Errorf("New params = %+v, want %+v", got, want)
	}
	if !s.Updated.Equal(t0) || s.Turns != 0 {
		t.Errorf("New updated, turns = %v, %d; want %v, 0", s.Updated, s.Turns, t0)
	}
}

func TestAppraiseEmotion(t *testing.T) {
	base := affect.New(affect.NadinePersonality(), t0)
	tests := []struct {
		name      string
		label     nadine.Emotion
		intensity float64
		want      affect.Emotion
	}{
		{"joy", nadine.Joy, 0.6, affect.Emotion{nadine.Joy, 0.6, affect.PAD{0.40, 0.20, 0.10}}},
		{"anger", nadine.Anger, 0.9, affect.Emotion{nadine.Anger, 0.9, affect.PAD{-0.51, 0.59, 0.25}}},
		{"clamped high", nadine.Fear, 3, affect.Emotion{nadine.Fear, 1, affect.PAD{-0.64, 0.60, -0.43}}},
		{"negative is none", nadine.Sadness, -1, affect.Emotion{Label: nadine.Neutral}},
		{"NaN is none", nadine.Sadness, math.NaN(), affect.Emotion{Label: nadine.Neutral}},
		{"under the floor", nadine.Surprise, 0.04, affect.Emotion{Label: nadine.Neutral}},
		{"invalid label", "ecstasy", 0.8, affect.Emotion{Label: nadine.Neutral}},
		{"empty label", "", 0.8, affect.Emotion{Label: nadine.Neutral}},
		{"neutral has no intensity", nadine.Neutral, 0.8, affect.Emotion{Label: nadine.Neutral}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := affect.Appraise(base, tt.label, tt.intensity, t0)
			if got.Emotion != tt.want {
				t.Errorf("emotion = %+v, want %+v", got.Emotion, tt.want)
			}
			if tt.want.Label == nadine.Neutral && got.Mood != base.Mood {
				t.Errorf("a neutral appraisal moved the mood from %+v to %+v", base.Mood, got.Mood)
			}
		})
	}
}

func TestAppraisePull(t *testing.T) {
	// From the origin, the mood moves intensity·PullRate of the way.
	s := affect.New(affect.Personality{}, t0)
	got := affect.Appraise(s, nadine.Joy, 1, t0).Mood
	if want := (affect.PAD{0.3 * 0.40, 0.3 * 0.20, 0.3 * 0.10}); !nearPAD(got, want) {
		t.Errorf("joy from the origin: mood = %+v, want %+v", got, want)
	}
	s.Params.PullRate = 0.5
	got = affect.Appraise(s, nadine.Anger, 0.5, t0).Mood
	if want := (affect.PAD{0.25 * -0.51, 0.25 * 0.59, 0.25 * 0.25}); !nearPAD(got, want) {
		t.Errorf("anger 0.5 at rate 0.5: mood = %+v, want %+v", got, want)
	}

	// From Nadine's baseline, every emotion pulls the mood toward its point,
	// and more intensity pulls further.
	base := affect.New(affect.NadinePersonality(), t0)
	for _, e := range nadine.Emotions() {
		point, _ := affect.EmotionPAD(e)
		d0 := dist(base.Mood, point)
		weak := affect.Appraise(base, e, 0.3, t0)
		strong := affect.Appraise(base, e, 1, t0)
		d1, d2 := dist(weak.Mood, point), dist(strong.Mood, point)
		if !(d2 < d1 && d1 < d0) {
			t.Errorf("%s: distance to the emotion went %v → %v (weak) → %v (strong); want decreasing", e, d0, d1, d2)
		}
	}
}

func TestAppraisePush(t *testing.T) {
	// A mood already beyond joy in the exuberant octant is pushed further
	// out, not pulled back toward joy's point.
	s := affect.New(affect.Personality{}, t0)
	s.Mood = affect.PAD{0.8, 0.5, 0.4}
	got := affect.Appraise(s, nadine.Joy, 1, t0).Mood
	want := affect.PAD{0.8 + 0.3*0.40, 0.5 + 0.3*0.20, 0.4 + 0.3*0.10}
	if !nearPAD(got, want) {
		t.Errorf("push: mood = %+v, want %+v", got, want)
	}
	// Pushing stays inside the cube.
	s.Mood = affect.PAD{0.99, 0.99, 0.99}
	got = affect.Appraise(s, nadine.Joy, 1, t0).Mood
	if want := (affect.PAD{1, 1, 1}); !nearPAD(got, want) {
		t.Errorf("push at the edge: mood = %+v, want %+v", got, want)
	}
	// Same octant but closer to the origin than joy: pulled toward it.
	s.Mood = affect.PAD{0.1, 0.1, 0.05}
	got = affect.Appraise(s, nadine.Joy, 1, t0).Mood
	want = affect.PAD{0.1 + 0.3*0.3, 0.1 + 0.3*0.1, 0.05 + 0.3*0.05}
	if !nearPAD(got, want) {
		t.Errorf("pull inside the octant: mood = %+v, want %+v", got, want)
	}
}

func dist(a, b affect.PAD) float64 {
	return math.Sqrt((a.P-b.P)*(a.P-b.P) + (a.A-b.A)*(a.A-b.A) + (a.D-b.D)*(a.D-b.D))
}

// upset returns Nadine's state after a strong fear at t0.
func upset() affect.State {
	s := affect.New(affect.NadinePersonality(), t0)
	for range 5 {
		s = affect.Appraise(s, nadine.Fear, 1, t0)
	}
	return s
}

func TestDecayConverges(t *testing.T) {
	s := upset()
	base := affect.Baseline(s)
	if dist(s.Mood, base) < 0.3 {
		t.Fatalf("setup: mood %+v too close to the baseline %+v", s.Mood, base)
	}
	// The distance to the baseline shrinks at every step.
	prev := dist(s.Mood, base)
	now := t0
	for i := range 60 {
		now = now.Add(time.Minute)
		s = affect.Decay(s, now)
		d := dist(s.Mood, base)
		if d >= prev {
			t.Fatalf("minute %d: distance to baseline %v, was %v; want decreasing", i+1, d, prev)
		}
		prev = d
	}
	if !s.Updated.Equal(now) {
		t.Errorf("Updated = %v, want %v", s.Updated, now)
	}
	// Left alone overnight: back at the baseline, the emotion gone.
	s = affect.Decay(upset(), t0.Add(10*time.Hour))
	if d := dist(s.Mood, base); d > 1e-6 {
		t.Errorf("after a night: mood %+v is %v from the baseline %+v", s.Mood, d, base)
	}
	if got, want := s.Emotion, (affect.Emotion{Label: nadine.Neutral}); got != want {
		t.Errorf("after a night: emotion = %+v, want %+v", got, want)
	}
}

func TestDecayHalfLife(t *testing.T) {
	s := upset()
	base := affect.Baseline(s)
	d0 := dist(s.Mood, base)
	s = affect.Decay(s, t0.Add(15*time.Minute)) // default mood half-life
	if got, want := dist(s.Mood, base), d0/2; !near(got, want) {
		t.Errorf("after one mood half-life: distance %v, want %v", got, want)
	}
	s = upset()
	s = affect.Decay(s, t0.Add(time.Minute)) // default emotion half-life
	if got, want := s.Emotion.Intensity, 0.5; !near(got, want) {
		t.Errorf("after one emotion half-life: intensity %v, want %v", got, want)
	}
	if got := s.Emotion.Label; got != nadine.Fear {
		t.Errorf("after one emotion half-life: label %q, want fear", got)
	}
}

func TestDecayNoTime(t *testing.T) {
	s := upset()
	tests := []struct {
		name string
		s    affect.State
		now  time.Time
	}{
		{"same time", s, t0},
		{"clock went back", s, t0.Add(-time.Hour)},
		{"zero now", s, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := affect.Decay(tt.s, tt.now)
			if got.Mood != tt.s.Mood || got.Emotion != tt.s.Emotion || !got.Updated.Equal(tt.s.Updated) {
				t.Errorf("Decay changed the state: %+v, want %+v", got, tt.s)
			}
		})
	}
	// A state never stamped lets no time pass but gets stamped.
	s.Updated = time.Time{}
	got := affect.Decay(s, t0.Add(time.Hour))
	if got.Mood != s.Mood || !got.Updated.Equal(t0.Add(time.Hour)) {
		t.Errorf("unstamped: mood %+v updated %v; want %+v, %v", got.Mood, got.Updated, s.Mood, t0.Add(time.Hour))
	}
}

func TestDecayParamsOff(t *testing.T) {
	s := upset()
	s.Params.MoodHalfLife = -1
	s.Params.EmotionHalfLife = -1
	got := affect.Decay(s, t0.Add(24*time.Hour))
	if got.Mood != s.Mood || got.Emotion != s.Emotion {
		t.Errorf("with decay off, a day changed the state: %+v → %+v", s, got)
	}
}

func TestZeroParamsAreDefaults(t *testing.T) {
	a := upset()
	b := a
	b.Params = affect.Params{}
	later := t0.Add(7 * time.Minute)
	ga, gb := affect.Update(affect.Appraise(a, nadine.Joy, 0.7, later), later), affect.Update(affect.Appraise(b, nadine.Joy, 0.7, later), later)
	if ga.Mood != gb.Mood || ga.Emotion != gb.Emotion {
		t.Errorf("zero params: %+v / %+v; default params: %+v / %+v", gb.Mood, gb.Emotion, ga.Mood, ga.Emotion)
	}
}

func TestUpdate(t *testing.T) {
	s := upset()
	base := affect.Baseline(s)
	d0 := dist(s.Mood, base)
	got := affect.Update(s, t0)
	if got.Turns != 1 {
		t.Errorf("Turns = %d, want 1", got.Turns)
	}
	if d, want := dist(got.Mood, base), 0.9*d0; !near(d, want) {
		t.Errorf("distance to baseline after a turn = %v, want %v", d, want)
	}
	if got, want := got.Emotion.Intensity, 0.7; !near(got, want) {
		t.Errorf("emotion intensity after a turn = %v, want %v", got, want)
	}
	// Enough turns without appraisal: the emotion fades to neutral and the
	// mood comes home, one step closer each turn.
	prev := d0
	for i := range 200 {
		got = affect.Update(got, t0)
		d := dist(got.Mood, base)
		if d > prev {
			t.Fatalf("turn %d: distance %v, was %v", i+2, d, prev)
		}
		prev = d
	}
	if got.Turns != 201 || got.Emotion.Label != nadine.Neutral || prev > 1e-6 {
		t.Errorf("after 201 turns: turns %d, emotion %+v, distance %v", got.Turns, got.Emotion, prev)
	}
	// Update also lets elapsed time pass.
	later := affect.Update(upset(), t0.Add(15*time.Minute))
	if d, want := dist(later.Mood, base), 0.5*0.9*d0; !near(d, want) {
		t.Errorf("turn after 15 minutes: distance %v, want %v", d, want)
	}
}

func TestDescribe(t *testing.T) {
	nadineState := affect.New(affect.NadinePersonality(), t0)
	tests := []struct {
		name string
		s    affect.State
		want string
	}{
		{"at rest", nadineState, "moderately relaxed mood; no particular emotion"},
		{"joy", func() affect.State {
			s := affect.New(affect.Personality{}, t0)
			s.Mood = affect.PAD{0.1, 0.1, 0.1}
			s.Emotion = affect.Emotion{Label: nadine.Joy, Intensity: 0.6}
			return s
		}(), "slightly exuberant mood; feeling joy (intensity 0.6)"},
		{"rounded", func() affect.State {
			s := affect.New(affect.Personality{}, t0)
			s.Emotion = affect.Emotion{Label: nadine.Anger, Intensity: 0.456}
			return s
		}(), "neutral mood; feeling anger (intensity 0.46)"},
		{"zero state", affect.State{}, "neutral mood; no particular emotion"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := affect.Describe(tt.s); got != tt.want {
				t.Errorf("Describe = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestArousal(t *testing.T) {
	tests := []struct {
		e    affect.Emotion
		want float64
	}{
		{affect.Emotion{Label: nadine.Fear, Intensity: 1}, 0.60},
		{affect.Emotion{Label: nadine.Fear, Intensity: 0.5}, 0.30},
		{affect.Emotion{Label: nadine.Sadness, Intensity: 0.5}, -0.10},
		{affect.Emotion{Label: nadine.Neutral, Intensity: 0.9}, 0},
		{affect.Emotion{}, 0},
	}
	for _, tt := range tests {
		s := affect.State{Emotion: tt.e}
		if got := affect.Arousal(s); !near(got, tt.want) {
			t.Errorf("Arousal(%+v) = %v, want %v", tt.e, got, tt.want)
		}
	}
}

func TestToBus(t *testing.T) {
	s := affect.New(affect.Personality{}, t0)
	s = affect.Appraise(s, nadine.Surprise, 0.5, t0)
	got := affect.ToBus(s)
	k := 0.5 * 0.3
	want := nadine.AffectState{
		Label:       nadine.Surprise,
		Intensity:   0.5,
		Arousal:     0.67 * 0.5,
		Pleasure:    k * 0.40,
		Dominance:   k * -0.13,
		MoodArousal: k * 0.67,
		MoodLabel:   "slightly dependent",
	}
	if got.Label != want.Label || got.MoodLabel != want.MoodLabel ||
		!near(got.Intensity, want.Intensity) || !near(got.Arousal, want.Arousal) ||
		!near(got.Pleasure, want.Pleasure) || !near(got.Dominance, want.Dominance) || !near(got.MoodArousal, want.MoodArousal) {
		t.Errorf("ToBus = %+v, want %+v", got, want)
	}
	if got := affect.ToBus(affect.State{}); got.Label != nadine.Neutral || got.MoodLabel != "neutral" {
		t.Errorf("ToBus(zero) = %+v, want neutral", got)
	}
}

func TestStateJSON(t *testing.T) {
	s := affect.Update(affect.Appraise(affect.New(affect.NadinePersonality(), t0), nadine.Joy, 0.8, t0.Add(time.Second)), t0.Add(2*time.Second))
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var got affect.State
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, s) {
		t.Errorf("round trip:\n got %+v\nwant %+v\njson %s", got, s, data)
	}
	// The encoding names its fields, so stored states survive refactoring.
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"personality", "emotion", "mood", "params", "turns", "updated"} {
		if _, ok := fields[k]; !ok {
			t.Errorf("JSON has no %q field: %s", k, data)
		}
	}
}
