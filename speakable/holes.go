package speakable

import "regexp"

// A sentence left with holes where something was cut ("You can read all
// about me at or on Wikipedia", "Mehr erfahren Sie unter .", "请见 。") is
// not said: the "never leave a sentence with holes" holds for the
// holes a model's own output or an earlier cleaning left too. A hole is read
// from structure: two prepositions of place joined with nothing between
// them, or a preposition whose object is only a space before a comma or a
// full stop (docs/speech.md, "The issue's own list").

// holeRE are the holes, in the four languages. Read folded (foldMarks).
// "On and on", "in and out" and "on or before Friday" join no two
// prepositions of place: they are speech.
var holeRE = regexp.MustCompile(`(?i)\b(?:at|on|via|under)\s+(?:or|and)\s+(?:at|via|under)\b|\bat\s+(?:or|and)\s+on\b` +
	`|\b(?:sur|via|sous)\s+(?:ou|et)\s+(?:sur|via)\b` +
	`|\b(?:auf|unter|bei|via)\s+(?:oder|und)\s+(?:auf|unter|bei|via)\b` +
	`|\b(?:at|on|via|from|to|visit|sur|via|chez|unter|auf|bei|besuchen\s+sie)\s+[,.;:](?:\s|$)` +
	`|在\s*(?:或者|或|和)\s*(?:在\s*)?上|在\s+上|(?:访问|请见|见|登录)\s+[。，,.]`)

// holed reports whether a sentence was left with holes.
func holed(s string) bool { return holeRE.MatchString(foldMarks(s)) }
