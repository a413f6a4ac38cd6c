package spoken

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A synthesizer reads letters, digits and the punctuation prose is written
// with as words and pauses; any other sign it spells by name ("astérisque",
// "dièse", "Unterstrich"). Whatever rule missed a piece of markup, the last
// step keeps only that alphabet: faces typed in ASCII ("}:)", ":-S",
// "0_0") go whole, and the signs prose never holds go one by one, save
// those of arithmetic between numbers (docs/speech.md, "The synthesizer's
// alphabet").

// prosePunct are the ASCII signs prose is written with: pauses, quotes,
// and the signs read as the word they stand for ("&", "%", "/" in "km/h").
const prosePunct = `.,;:!?'"()-/&%`

// sentencePunct are the signs that end or part a sentence's words, which a
// typed face needs more than to be one ("M.", "1:", "?!").
const sentencePunct = `.,;:!?'"`

// arithmetic are the signs read as words between numbers ("2 + 2 = 4",
// "3 < 5"); anywhere else they are markup's.
const arithmetic = `+-=<>×÷±≈≤≥−*/^~～`

// listMarkRE is a list's mark in a sentence ("a)", "(1)").
var listMarkRE = regexp.MustCompile(`^\(?[A-Za-z0-9]\)$`)

// spelledOut reports a rune a synthesizer reads by its name, not as a word
// or a pause.
func spelledOut(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsSpace(r) || strings.ContainsRune(prosePunct, r))
	case unicode.IsLetter(r), unicode.IsNumber(r), unicode.IsSpace(r), unicode.Is(unicode.M, r):
		return false
	case unicode.In(r, unicode.Pd, unicode.Pi, unicode.Pf, unicode.Ps, unicode.Pe, unicode.Sc):
		return false // dashes, quotes, brackets of other widths, currencies
	case unicode.Is(unicode.Po, r):
		return strings.ContainsRune("§¶†‡※⁂⁎⁑•◦‣⁃∙＃＊＠＼", r) // a note's or a list's sign; the rest is punctuation
	case strings.ContainsRune("°℃℉№", r):
		return false // a measure's sign, read as its unit
	}
	return true // symbols: mathematics, modifiers, arrows, drawings
}

// Unspelled returns s with what a synthesizer would spell sign by sign
// taken out: typed faces, and signs prose is not written with.
func Unspelled(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool {
		return spelledOut(r) || strings.ContainsRune(`:;=()-/'°,"%&`, r) || unicode.Is(unicode.Pd, r)
	}) {
		return s
	}
	s = withoutSeparatorFields(s, true)
	if !strings.ContainsFunc(s, func(r rune) bool { return spelledOut(r) || r == '°' }) {
		return proseSigns(withoutUnpaired(s))
	}
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if r == '°' && !afterNumber(rs, i) {
			continue // a degree's sign with no number is a drawing's ("°°°")
		}
		if !spelledOut(r) || strings.ContainsRune(arithmetic, r) && betweenNumbers(rs, i) || strings.ContainsRune("#+", r) && afterName(rs, i) || r == '$' && (afterNumber(rs, i) || betweenNumbers(rs, i)) {
			b.WriteRune(r)
			continue
		}
		if r == '_' || r == '|' || i > 0 && i+1 < len(rs) && isAlnum(rs[i-1]) && isAlnum(rs[i+1]) {
			b.WriteByte(' ') // a word's joint ("mot_clé", "tout+le+monde"), a cell's wall
		}
	}
	return proseSigns(withoutSeparatorFields(withoutUnpaired(b.String()), false)) // "|---|---|" left "--- ---"
}

// Prose writes its signs one at a time, around words: what markup left of
// them ("Bonjour,, je", "Nadine \"\"", "/* … */" without its stars, a dash
// drawn twice between words) is made prose again.
var (
	gluedDashesRE = regexp.MustCompile(`(\pL)(?:--|---)(\pL)`)
	doubledSignRE = regexp.MustCompile(`,{2,}|;{2,}|%{2,}|&{2,}|'{2,}|"{2,}|\({2,}|\){2,}`)
	emptyQuotesRE = regexp.MustCompile(`(^|\s)(?:""|''|"\s+"|'\s+')(\s|[.,;:!?]|$)`)
)

// edgeSigns are signs that join words and are nothing at a sentence's edge
// ("Je suis Nadine /", "& Je suis").
const edgeSigns = "/&'\""

// proseSigns returns s with its prose signs as prose writes them.
func proseSigns(s string) string {
	if strings.Contains(s, "--") {
		s = gluedDashesRE.ReplaceAllString(s, "$1 — $2")
	}
	if strings.ContainsAny(s, `'"`) {
		s = emptyQuotesRE.ReplaceAllString(s, "$1$2")
	}
	if doubledSignRE.MatchString(s) {
		s = doubledSignRE.ReplaceAllStringFunc(s, func(m string) string { return m[:1] })
	}
	fields := strings.Fields(s)
	if n := len(fields); n > 1 && (strings.Trim(fields[0], edgeSigns) == "" || strings.Trim(fields[n-1], edgeSigns) == "") {
		if strings.Trim(fields[n-1], edgeSigns) == "" {
			fields = fields[:n-1]
		}
		if strings.Trim(fields[0], edgeSigns) == "" {
			fields = fields[1:]
		}
		s = strings.Join(fields, " ")
	}
	if strings.Contains(s, " ,") || strings.Contains(s, " .") {
		s = spaceBeforeMarkRE.ReplaceAllString(s, "$1$2")
	}
	return s
}

// withoutSeparatorFields returns s's words without a separator drawn in dashes
// ("–––", "- - -", a dash that ends the sentence) and, with faces, without
// typed faces.
func withoutSeparatorFields(s string, faces bool) string {
	fields := strings.Fields(s)
	dashes := func(i int) bool {
		return i >= 0 && i < len(fields) && strings.TrimFunc(fields[i], func(r rune) bool { return unicode.Is(unicode.Pd, r) }) == ""
	}
	out := make([]string, 0, len(fields))
	for i, f := range fields {
		if faces && typedFace(f) || dashes(i) && (utf8.RuneCountInString(f) >= 2 || dashes(i-1) || dashes(i+1) || i == len(fields)-1 && i > 0) {
			continue
		}
		out = append(out, f)
	}
	return strings.Join(out, " ")
}

// withoutUnpaired removes a parenthesis that pairs with none: what held an
// address or markup that went ("(" left of "(https://…)"); a list's mark
// ("a)") keeps its own.
func withoutUnpaired(s string) string {
	if !strings.ContainsAny(s, "()") {
		return s
	}
	rs := []rune(s)
	var open []int
	drop := map[int]bool{}
	for i, r := range rs {
		switch r {
		case '(':
			open = append(open, i)
		case ')':
			if len(open) > 0 {
				open = open[:len(open)-1]
			} else if i == 0 || !unicode.IsLetter(rs[i-1]) && !unicode.IsDigit(rs[i-1]) {
				drop[i] = true
			}
		}
	}
	for _, i := range open {
		drop[i] = true
	}
	if len(drop) == 0 {
		return s
	}
	var b strings.Builder
	for i, r := range rs {
		if !drop[i] {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// betweenNumbers reports a sign with a number on either side, spaces
// aside ("2 + 2", "-5" after "=").
func betweenNumbers(rs []rune, i int) bool {
	j := i - 1
	for j >= 0 && rs[j] == ' ' {
		j--
	}
	k := i + 1
	for k < len(rs) && rs[k] == ' ' {
		k++
	}
	// A number's edge: a digit, a bracket around one, or a minus before
	// one ("(3 + 4) × 2", "= -5"); dashes drawn are no number ("+---+").
	before := j >= 0 && (unicode.IsDigit(rs[j]) || rs[j] == ')')
	after := k < len(rs) && (unicode.IsDigit(rs[k]) || strings.ContainsRune("(−-", rs[k]) && k+1 < len(rs) && unicode.IsDigit(rs[k+1]))
	return after && (before || strings.ContainsRune("+−-$", rs[i])) // "+41", "−5 °C", "$5"
}

// isAlnum reports a letter or a digit.
func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// afterNumber reports a sign after a number, spaces aside ("20 °C"), or
// after "n" ("n° 5").
func afterNumber(rs []rune, i int) bool {
	j := i - 1
	for j >= 0 && rs[j] == ' ' {
		j--
	}
	return j >= 0 && (unicode.IsDigit(rs[j]) || j == i-1 && (rs[j] == 'n' || rs[j] == 'N'))
}

// afterName reports a sign that ends a name with a capital ("C#", "C++",
// "A+").
func afterName(rs []rune, i int) bool {
	j := i
	for j >= 0 && (rs[j] == '+' || rs[j] == '#') {
		j--
	}
	return j >= 0 && unicode.IsUpper(rs[j]) && (j == 0 || !unicode.IsLetter(rs[j-1]))
}

// typedFace reports a field that is a face typed in ASCII ("}:)", ":-S",
// "8-)", "0_0", ";-;", "(y)"): at most one letter or digit, a sign prose
// does not end a sentence with, or eyes first; not a number ("+1", "5%"),
// an initial ("M."), a list's mark ("a)") nor a name ("C#", "C++").
func typedFace(f string) bool {
	n := utf8.RuneCountInString(f)
	if n < 2 || n > 6 {
		return false
	}
	alnum, spelled, first := 0, false, true
	var lead rune
	for _, r := range f {
		if first {
			lead, first = r, false
		}
		switch {
		case r >= utf8.RuneSelf:
			return false // faces of other signs are drawings (withoutDrawings)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			alnum++
		case !strings.ContainsRune(sentencePunct, r):
			spelled = true
		}
	}
	if alnum == 2 && n == 3 && f[0] == f[2] && (f[1] == '_' || f[1] == '.') {
		return true // eyes alike on either side of a nose ("0_0", "o.o")
	}
	if alnum > 1 {
		return false
	}
	if strings.ContainsRune(":;=", lead) {
		return true // eyes first: ":S", ";-;", "=P"
	}
	if !spelled {
		return false
	}
	trimmed := strings.TrimRight(f, sentencePunct)
	switch {
	case trimmed == "%" || trimmed == "&" || trimmed == "/":
		return false // French spacing's "20 %.", a sign read as its word
	case alnum == 1 && strings.Trim(trimmed, "+-%$°") != trimmed && strings.IndexFunc(strings.Trim(trimmed, "+-%$°"), func(r rune) bool { return !unicode.IsDigit(r) }) < 0:
		return false // a number with its sign or unit ("+1", "-5", "5%")
	case alnum == 1 && (unicode.IsLetter(lead) || unicode.IsDigit(lead)) && strings.Trim(trimmed[1:], "+#") == "":
		return false // a name or a grade ("C#", "C++", "A+")
	case listMarkRE.MatchString(trimmed):
		return false // a list's mark ("a)", "(1)")
	case alnum == 1 && strings.HasPrefix(trimmed, "(") && strings.IndexFunc(trimmed[1:], func(r rune) bool { return !isAlnum(r) }) < 0:
		return false // an aside opened on a number or a letter ("(3 + 4)")
	case alnum == 1 && strings.Trim(trimmed, "'’-") != trimmed && strings.IndexFunc(strings.Trim(trimmed, "'’-"), func(r rune) bool { return !unicode.IsLetter(r) }) < 0:
		return false // an elided or hyphenated letter ("l'", "-t")
	}
	return true
}

// cjkSigns are the punctuation of Chinese and its full-width forms, as a
// reply in a Latin script writes them.
var cjkSigns = strings.NewReplacer("。", ".", "、", ",", "「", "«", "」", "»", "『", "«", "』", "»", "《", "«", "》", "»", "【", "(", "】", ")", "〔", "(", "〕", ")", "・", " ", "　", " ")

// InLatinScript returns a sentence of a reply in a language written in the
// Latin script (English, French, German) as its synthesizer can read it: the
// signs of Chinese and full-width forms as their Latin ones ("Bonjour！",
// "musée。"), and words in ideographs or kana left out, which its voice
// cannot say ("您好！Bonjour !"). A sentence with no Latin word is in another
// language, and stays for the language policy to tag.
func InLatinScript(s string) string {
	if strings.ContainsFunc(s, isIPA) {
		s = withoutPhonetics(s)
	}
	if !strings.ContainsFunc(s, func(r rune) bool { return r >= 0x2E80 }) {
		return s
	}
	if !hasWord(s, latinScript) {
		return s // a sentence wholly in another language: the reply's language policy's
	}
	s = cjkSigns.Replace(s)
	var b strings.Builder
	skipping := false
	for _, r := range s {
		if r >= 0xFF01 && r <= 0xFF5E {
			r -= 0xFEE0 // a full-width sign or letter: its ASCII form
		}
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			skipping = true
			continue
		case skipping && (unicode.IsPunct(r) || unicode.IsSpace(r)) && !strings.ContainsRune("«(", r):
			continue // the ideographs' own punctuation goes with them
		}
		skipping = false
		b.WriteRune(r)
	}
	out := strings.Join(strings.Fields(b.String()), " ")
	if strings.Contains(out, " ,") || strings.Contains(out, " .") {
		out = spaceBeforeMarkRE.ReplaceAllString(out, "$1$2")
	}
	return out
}

// isIPA reports a letter or mark of the phonetic alphabet that no English,
// French or German word is written with ("ʁ", "ɔ", "ˈ", "ː").
func isIPA(r rune) bool { return r >= 0x0250 && r <= 0x02AF || r == 'ˈ' || r == 'ˌ' || r == 'ː' }

// withoutPhonetics leaves out a transcription in the phonetic alphabet
// ("/ʁɔ.bo/", "[naˈdin]"): a reader's aid, which the voice says itself.
func withoutPhonetics(s string) string {
	fields := strings.Fields(s)
	out := fields[:0]
	for _, f := range fields {
		if strings.ContainsFunc(f, isIPA) {
			if tail := strings.TrimRight(f, ".,;:!?"); len(tail) < len(f) && len(out) > 0 {
				out[len(out)-1] += f[len(tail):] // its sentence's end stays
			}
			continue
		}
		out = append(out, f)
	}
	return strings.Join(out, " ")
}
