package speakable

import "regexp"

// The prompt gives her feelings as a record ("YOUR FEELINGS: moderately
// relaxed mood; no particular emotion") and tells her to let them colour her
// tone without naming them. The record's own scale, a strength (ALMA's
// slightly, moderately, fully) before a mood octant beside the word mood,
// "no particular emotion" and an intensity's number, is the record said back
// in any language, not how she speaks of her feelings ("I'm a little
// nervous today"): docs/speech.md, "The turn narrated and the visitor's
// words said back".

// moodStrengths and moodOctants are ALMA's scale and octants (affect.
// Strength, affect.Octant) in four languages, accents folded.
const (
	moodStrengths = `slightly|moderately|fully|legerement|moderement|pleinement|completement|leicht|massig|vollig|vollkommen`
	moodOctants   = `exuberant|bored|dependent|disdainful|relaxed|anxious|docile|hostile|exuberante?|ennuyee?|dependante?|dedaigneu(?:x|se)|detendue?|anxieu(?:x|se)|uberschwanglich|gelangweilt|abhangig|verachtlich|herablassend|entspannt|angstlich|fugsam|gefugig|feindselig`
)

// feelingsRecordRE is the record's scale in four languages, accents folded:
// a mood noun, then a strength right before an octant (or after them); no
// particular emotion; an intensity with its number.
var feelingsRecordRE = regexp.MustCompile(`(?i)\b(?:mood|humeur|stimmung|laune)\b.{0,24}\b(?:` + moodStrengths + `)\s+(?:` + moodOctants + `)\b` +
	`|\b(?:` + moodStrengths + `)\s+(?:` + moodOctants + `)\s+(?:mood|humeur|stimmung)\b` +
	`|\bno\s+particular\s+emotion\b|\b(?:sans|aucune)\s+emotion\s+particuliere\b|\b(?:ohne|keine)\s+(?:besondere[ns]?|bestimmte[ns]?)\s+(?:emotion|gefuhl|gefuhlsregung)\b` +
	`|\b(?:intensity|intensite|intensitat)\s*(?:of\s+|de\s+|von\s+)?[0-9]+(?:[.,][0-9]+)?` +
	`|(?:心情|情绪|心境)[：:，,是为]?\s*(?:略微|稍微|轻微|适度|中等|中度|完全|十分)(?:兴奋|无聊|依赖|轻蔑|放松|焦虑|温顺|敌意|敌对)|没有特别的情绪|没有特定的情绪|强度\s*[0-9]`)

// feelingsRecord reports a sentence that says her feelings in the record's
// words.
func feelingsRecord(clean string) bool {
	return feelingsRecordRE.MatchString(foldMarks(clean))
}
