package affect

import (
	"math"

	"github.com/nadine-robot/nadine"
)

// PAD is a point in pleasure-arousal-dominance space, each axis in -1..1.
type PAD struct {
	P float64 `json:"p"` // pleasure
	A float64 `json:"a"` // arousal
	D float64 `json:"d"` // dominance
}

// Norm returns the Euclidean distance of m from the origin (0 to √3).
func (m PAD) Norm() float64 { return math.Sqrt(m.P*m.P + m.A*m.A + m.D*m.D) }

// Clamp returns m with each axis clamped to -1..1 (NaN becomes 0).
func (m PAD) Clamp() PAD { return PAD{clamp(m.P, -1, 1), clamp(m.A, -1, 1), clamp(m.D, -1, 1)} }

func (m PAD) add(o PAD) PAD       { return PAD{m.P + o.P, m.A + o.A, m.D + o.D} }
func (m PAD) sub(o PAD) PAD       { return PAD{m.P - o.P, m.A - o.A, m.D - o.D} }
func (m PAD) scale(k float64) PAD { return PAD{m.P * k, m.A * k, m.D * k} }

// clamp bounds x to lo..hi; NaN becomes 0 (then clamped).
func clamp(x, lo, hi float64) float64 {
	if math.IsNaN(x) {
		x = 0
	}
	return math.Max(lo, math.Min(hi, x))
}

// EmotionPAD returns an emotion's PAD point from ALMA's OCC table (surprise
// from Russell & Mehrabian); unknown emotions get the origin, like neutral.
func EmotionPAD(e nadine.Emotion) (PAD, bool) {
	switch e {
	case nadine.Joy:
		return PAD{0.40, 0.20, 0.10}, true
	case nadine.Sadness:
		return PAD{-0.40, -0.20, -0.50}, true
	case nadine.Fear:
		return PAD{-0.64, 0.60, -0.43}, true
	case nadine.Disgust:
		return PAD{-0.40, 0.20, 0.10}, true
	case nadine.Anger:
		return PAD{-0.51, 0.59, 0.25}, true
	case nadine.Surprise:
		return PAD{0.40, 0.67, -0.13}, true
	case nadine.Neutral:
		return PAD{}, true
	}
	return PAD{}, false
}

// Mood octant names (ALMA), by the signs of pleasure, arousal and dominance.
const (
	Exuberant  = "exuberant"  // +P +A +D
	Bored      = "bored"      // -P -A -D
	Dependent  = "dependent"  // +P +A -D
	Disdainful = "disdainful" // -P -A +D
	Relaxed    = "relaxed"    // +P -A +D
	Anxious    = "anxious"    // -P +A -D
	Docile     = "docile"     // +P -A -D
	Hostile    = "hostile"    // -P +A +D
	// NeutralMood names a mood at the origin of PAD space.
	NeutralMood = "neutral"
)

// neutralRadius is the distance from the origin under which a mood has no
// octant.
const neutralRadius = 1e-6

// Octant names m's ALMA mood octant ("exuberant" for +P+A+D, …), "neutral"
// at the origin; an axis at exactly 0 counts as positive.
func Octant(m PAD) string {
	if m.Norm() < neutralRadius {
		return NeutralMood
	}
	p, a, d := m.P >= 0, m.A >= 0, m.D >= 0
	switch {
	case p && a && d:
		return Exuberant
	case !p && !a && !d:
		return Bored
	case p && a && !d:
		return Dependent
	case !p && !a && d:
		return Disdainful
	case p && !a && d:
		return Relaxed
	case !p && a && !d:
		return Anxious
	case p && !a && !d:
		return Docile
	default: // !p && a && d
		return Hostile
	}
}

// Mood strengths, by distance from the origin.
const (
	Slightly   = "slightly"
	Moderately = "moderately"
	Fully      = "fully"
)

// Strength is ALMA's "slightly", "moderately" or "fully": thirds of m's
// distance from the origin over √3; "" at the origin.
func Strength(m PAD) string {
	n := m.Norm()
	if n < neutralRadius {
		return ""
	}
	switch r := n / math.Sqrt(3); {
	case r < 1.0/3:
		return Slightly
	case r < 2.0/3:
		return Moderately
	default:
		return Fully
	}
}

// MoodLabel names a mood with its strength and octant ("slightly
// exuberant"), or "neutral" at the origin.
func MoodLabel(m PAD) string {
	s := Strength(m)
	if s == "" {
		return NeutralMood
	}
	return s + " " + Octant(m)
}

// sameOctant reports whether a and b lie in the same octant (neither at the
// origin).
func sameOctant(a, b PAD) bool {
	o := Octant(a)
	return o != NeutralMood && o == Octant(b)
}

// Valence is the sign of an emotion's pleasure (0 for neutral and unknown):
// a reply written feeling one emotion suits another of the same valence.
func Valence(e nadine.Emotion) int {
	p, _ := EmotionPAD(e)
	switch {
	case p.P > 0:
		return 1
	case p.P < 0:
		return -1
	}
	return 0
}
