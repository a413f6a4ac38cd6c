package affect

// Personality is a Big Five personality. Each trait is in -1..1, as in ALMA:
// -1 is the trait's low pole, 0 average, 1 its high pole.
type Personality struct {
	Openness          float64 `json:"openness"`
	Conscientiousness float64 `json:"conscientiousness"`
	Extraversion      float64 `json:"extraversion"`
	Agreeableness     float64 `json:"agreeableness"`
	Neuroticism       float64 `json:"neuroticism"`
}

// Clamp returns p with each trait clamped to -1..1 (NaN becomes 0).
func (p Personality) Clamp() Personality {
	return Personality{
		Openness:          clamp(p.Openness, -1, 1),
		Conscientiousness: clamp(p.Conscientiousness, -1, 1),
		Extraversion:      clamp(p.Extraversion, -1, 1),
		Agreeableness:     clamp(p.Agreeableness, -1, 1),
		Neuroticism:       clamp(p.Neuroticism, -1, 1),
	}
}

// NadinePersonality is friendly, very agreeable and low in neuroticism, so
// her baseline mood is moderately relaxed.
func NadinePersonality() Personality {
	return Personality{
		Openness:          0.4,
		Conscientiousness: 0.5,
		Extraversion:      0.6,
		Agreeableness:     0.8,
		Neuroticism:       -0.6,
	}
}

// DefaultMood is the mood p returns to: Mehrabian's (1996) regression, via
// ALMA, applied to stability = −Neuroticism (docs/architecture.md#affect).
func DefaultMood(p Personality) PAD {
	p = p.Clamp()
	o, c, e, a := p.Openness, p.Conscientiousness, p.Extraversion, p.Agreeableness
	s := -p.Neuroticism
	return PAD{
		P: 0.21*e + 0.59*a + 0.19*s,
		A: 0.15*o + 0.30*a - 0.57*s,
		D: 0.25*o + 0.17*c + 0.60*e - 0.32*a,
	}.Clamp()
}
