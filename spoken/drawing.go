package spoken

import (
	"regexp"
	"strings"
	"unicode"
)

// A face drawn in signs ("(ー_ー)!!", "d(^_^)b", "( ͡° ͜ʖ ͡°)", "ᕕ( ᐛ )ᕗ") or
// a separator ("|", "‖", ":･ﾟ") is spelled sign by sign by a synthesizer.
// The faces are too many to list; what they share is that they hold no
// word of the sentence's own script and no number: only signs, modifier
// letters and letters of other scripts. A span in parentheses, or a run
// between spaces, of that kind is a drawing and goes (docs/speech.md,
// "Faces and separators drawn in signs").

// groupRE is a span in parentheses a face may be drawn in.
var groupRE = regexp.MustCompile(`[(（][^()（）\n]{1,20}[)）]`)

// script is the writing a sentence's words are in: Latin, or the
// ideographs of Chinese.
type script int

const (
	latinScript script = iota
	hanScript
	anyScript // a word in whatever script: "你好" in a reply in English
)

// mainScript is the script most of s's letters are in.
func mainScript(s string) script {
	latin, han := 0, 0
	for _, r := range s {
		switch {
		case isWordLetter(r, latinScript):
			latin++
		case isWordLetter(r, hanScript):
			han++
		}
	}
	if han > latin {
		return hanScript
	}
	return latinScript
}

// isWordLetter reports a letter the script's words are written with: not
// a modifier letter, not a letter of another script drawn into a face.
func isWordLetter(r rune, sc script) bool {
	switch sc {
	case hanScript:
		return unicode.Is(unicode.Han, r) && r != '彡'
	case anyScript:
		return unicode.IsLetter(r) && !unicode.Is(unicode.Lm, r)
	}
	return (r < 0x250 || r >= 0x1E00 && r <= 0x1EFF) && unicode.IsLetter(r) && !unicode.Is(unicode.Lm, r)
}

// speechPunct are the marks a sentence is punctuated with, read as pauses
// or not at all, and the signs read as the words they stand for.
// Bullets and brackets have rules of their own (a comma between words,
// code).
const speechPunct = `{}[]/.,;:!?…'’‘"“”„«»‹›-–—()（）&%‰°§#@*+=<>~•·▪◦‣∙・`

// isSign reports a rune that is no letter, no digit and no punctuation a
// sentence is written with.
func isSign(r rune) bool {
	switch {
	case unicode.IsLetter(r), unicode.IsNumber(r), unicode.IsSpace(r), unicode.Is(unicode.Mn, r), isEmoji(r):
		return false // marks on letters and emoji go later, each by its rule
	case strings.ContainsRune(speechPunct, r), unicode.Is(unicode.Sc, r), unicode.Is(unicode.Sm, r) && r < 0x2000 && r != '|':
		return false
	}
	return true
}

// isDrawing reports a span that holds a sign (or, in a face's
// parentheses, a letter of another script), no number and no word: no two
// letters of the script in a row (in parentheses, of any script: an aside
// in Chinese in a reply in French is words).
func isDrawing(span string, sc script, inGroup bool) bool {
	marks := false
	for _, r := range span {
		switch {
		case unicode.IsNumber(r):
			return false
		case isWordLetter(r, sc):
		case isSign(r), unicode.Is(unicode.Lm, r), inGroup && unicode.IsLetter(r):
			marks = true
		}
	}
	return marks && !hasWord(span, sc) && !(inGroup && hasWord(span, anyScript))
}

// arms reports a run holding a drawn face whose other parts are the
// face's arms: a sign or a letter each, or drawings ("d\x00b", "\x00!!").
func arms(f string, sc script) bool {
	for _, p := range strings.Split(f, drawn) {
		if len([]rune(p)) > 2 && !isDrawing(p, sc, true) {
			return false
		}
	}
	return true
}

// hasWord reports two letters of the script in a row, or one ideograph;
// marks on a letter do not part it from the next.
func hasWord(s string, sc script) bool {
	run := 0
	for _, r := range s {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if !isWordLetter(r, sc) {
			run = 0
			continue
		}
		if run++; run >= 2 || sc == hanScript {
			return true
		}
	}
	return false
}

// Drawing reports whether an aside's words, its parentheses taken off, are
// a face drawn in signs ("^_^", "ー_ー"): Clean takes it with its arms.
func Drawing(inner string) bool { return isDrawing(inner, mainScript(inner), true) }

// hanArmsRE is a drawn face with its arms in a Chinese sentence.
var hanArmsRE = regexp.MustCompile("[^\\p{Han}A-Za-z0-9\\s，。！？、：；“”‘’《》（）()]{0,6}\x00[^\\p{Han}A-Za-z0-9\\s，。！？、：；“”‘’《》（）()]{0,6}")

// stickerRE is a chat app's sticker code in a text with ideographs
// ("[呲牙]", "[doge]").
var stickerRE = regexp.MustCompile(`\[[\p{Han}A-Za-z]{1,8}\]`)

// drawn marks where a face in parentheses was, so that its arms glued to
// it go with it.
const drawn = "\x00"

// withoutDrawings removes the faces and separators drawn in signs, line by
// line (the lines are read later).
func withoutDrawings(s string) string {
	sc := mainScript(s)
	if strings.Contains(s, "[") && strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
		s = stickerRE.ReplaceAllString(s, "")
	}
	s = groupRE.ReplaceAllStringFunc(s, func(g string) string {
		inner := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(g, "("), "（"), ")"), "）")
		if isDrawing(inner, sc, true) {
			return drawn
		}
		return g
	})
	if sc == hanScript {
		// Ideographs take no spaces: a face's arms are what is glued to it
		// and is neither an ideograph, a Latin word nor punctuation
		// ("ง\x00ง", "｡٩\x00و｡").
		return hanArmsRE.ReplaceAllString(s, "")
	}
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		lines[i] = withoutDrawnFields(line, sc)
	}
	return strings.Join(lines, "\n")
}

// withoutDrawnFields removes a line's runs between spaces that are
// drawings: a face with its arms ("d(^_^)b", "ᕕ( ᐛ )ᕗ"), a separator ("|"),
// an ideograph alone as a decoration ("彡").
func withoutDrawnFields(line string, sc script) string {
	if strings.Count(line, "|") >= 2 || !strings.Contains(line, "--") && !strings.ContainsFunc(line, func(r rune) bool { return r == 0 || isSign(r) || r > 0x2000 && unicode.IsLetter(r) }) {
		return line // a table's row is read by its cells
	}
	fields := strings.Fields(line)
	out := fields[:0]
	for _, f := range fields {
		rest := strings.ReplaceAll(f, drawn, "")
		switch {
		case rest == "":
			continue
		case strings.Contains(f, drawn) && arms(f, sc):
			continue
		case isDrawing(rest, sc, false) && !hasWord(rest, anyScript):
			continue
		case len([]rune(rest)) == 1 && unicode.In([]rune(rest)[0], unicode.Han, unicode.Katakana, unicode.Hiragana):
			continue
		}
		out = append(out, rest)
	}
	for i, f := range out {
		if f == "--" && len(out) > 1 { // alone on its line, it opens an e-mail's signature
			out[i] = "—" // a dash typed as two hyphens
		}
	}
	lead := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	return lead + strings.Join(out, " ")
}
