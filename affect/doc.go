// Package affect is Nadine's emotion and mood model (the graph's
// affective system), after ALMA (Gebhard 2005, "ALMA – A Layered Model of Affect").
//
// Three layers live in PAD space (pleasure, arousal, dominance, each in
// -1..1):
//
//   - Personality (Big Five) is fixed and gives the baseline mood through
//     Mehrabian's (1996) mapping (DefaultMood).
//   - Emotion is short-lived: an appraisal of the user's input names one of
//     the six emotions with an intensity (Appraise). Its intensity fades with
//     time and with every turn.
//   - Mood is longer-lived: each appraisal pulls it toward the emotion's PAD
//     point (or pushes it further out, see Appraise), and it decays back to
//     the personality's baseline with time (Decay) and with every turn
//     (Update), so a robot left alone overnight is back at its baseline.
//
// Everything is a pure function of a State value and the time passed in; the
// State encodes as JSON so the caller can persist it per robot. Octant,
// Strength and Describe render the mood as words ("moderately relaxed mood;
// feeling joy (intensity 0.6)") for prompts, and ToBus fills the
// nadine.AffectState published on the robot bus.
package affect
