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

// NadinePersonality is Nadine's default personality: friendly, very
// agreeable, fairly extraverted, open and conscientious, with low
// neuroticism. Its baseline mood is moderately relaxed (pleasant, calm,
// fairly dominant).
func NadinePersonality() Personality {
	return Personality{
		Openness:          0.4,
		Conscientiousness: 0.5,
		Extraversion:      0.6,
		Agreeableness:     0.8,
		Neuroticism:       -0.6,
	}
}

// DefaultMood returns the baseline mood of a personality: the mood it
// returns to when nothing happens. It uses the regression of Mehrabian
// (1996), "Analysis of the Big-five personality factors in terms of the PAD
// temperament model", Australian Journal of Psychology 48(2), as quoted by
// ALMA (Gebhard 2005):
//
//	Pleasure  = 0.21·E + 0.59·A + 0.19·S
//	Arousal   = 0.15·O + 0.30·A − 0.57·S
//	Dominance = 0.25·O + 0.17·C + 0.60·E − 0.32·A
//
// where S is Mehrabian's fifth factor, emotional stability. ALMA prints the
// same coefficients with the label "Neuroticism", but neuroticism is the
// opposite pole of emotional stability (Mehrabian describes neuroticism as
// unpleasant and arousable), and taking the label literally would make an
// anxious personality pleasant and calm. So S = −Neuroticism here: the
// coefficients are the published ones, applied to stability. Traits are
// clamped to -1..1 first and each axis of the result to -1..1.
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
