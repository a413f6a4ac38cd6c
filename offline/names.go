package offline

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
)

// maxNameWords and maxNameRunes bound an extracted name.
const (
	maxNameWords = 3
	maxNameRunes = 40
)

// latinName reads the name that starts at token i, in the given clause:
// "Alex", "Jean-Pierre", "Alex Smith" (later words only when capitalized,
// since "my name is alex how are you" has no punctuation). With ambiguous
// set ("I'm …", "je suis …"), a word that is common after such a trigger
// ("tired", "fatigué", "müde") is no name. It returns "" when there is no
// name.
func (e *Engine) latinName(toks []token, i, clause int, ambiguous bool, lang nadine.Language) string {
	if i >= len(toks) || toks[i].clause != clause {
		return ""
	}
	first := toks[i]
	if !isNameWord(first.orig) || e.notNames[first.norm] || e.notNames[strings.ToLower(first.orig)] ||
		e.nameStops[first.norm] || isLanguageWord(first) {
		return ""
	}
	if ambiguous && lang == nadine.English && strings.HasSuffix(first.norm, "ing") {
		return "" // "I am going", "I'm looking"
	}
	var b strings.Builder
	words := 0
	for i < len(toks) && toks[i].clause == clause && words < maxNameWords {
		t := toks[i]
		if words > 0 && (!isNameWord(t.orig) || !startsUpper(t.orig) || e.notNames[t.norm] || e.nameStops[t.norm]) {
			break
		}
		if words > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(titleCase(t.orig))
		words++
		i++
		for i < len(toks) && toks[i].hyphen && toks[i].clause == clause && isNameWord(toks[i].orig) {
			b.WriteByte('-')
			b.WriteString(titleCase(toks[i].orig))
			i++
		}
	}
	name := b.String()
	if utf8.RuneCountInString(name) > maxNameRunes {
		return ""
	}
	return name
}

// hanStops end a Chinese name: "我叫王小明很高兴认识您" gives 王小明.
const hanStops = "很我你您他她是和在的了呢吧啊呀哦嗯来从住但也就请谢今"

// hanNotName reports whether what follows "我叫" asks a question ("我叫什么")
// rather than giving a name.
func hanNotName(name string) bool {
	for _, p := range []string{"什么", "啥", "谁", "甚么", "名字"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// hanName reads the name that follows a Chinese trigger ending at byte
// offset at: Chinese characters ("我叫王小明") or Latin words ("我叫Alex").
// After the ambiguous "我是", a Chinese name must be two or three
// characters starting with a common family name.
func (e *Engine) hanName(a *analysis, at int, ambiguous bool) string {
	rest := strings.TrimLeft(a.text[at:], " \t:：")
	r, _ := utf8.DecodeRuneInString(rest)
	if r == utf8.RuneError {
		return ""
	}
	if !unicode.Is(unicode.Han, r) {
		// Latin words: find the token that starts where rest starts.
		off := len(a.text) - len(rest)
		for i, t := range a.tokens {
			if t.start == off {
				return e.latinName(a.tokens, i, t.clause, ambiguous, nadine.Chinese)
			}
		}
		return ""
	}
	var runes []rune
	ended := true // the name ends at a non-Han character or the end
	for _, r := range rest {
		if !unicode.Is(unicode.Han, r) {
			break
		}
		if strings.ContainsRune(hanStops, r) {
			break
		}
		if len(runes) == 4 {
			ended = false
			break
		}
		runes = append(runes, r)
	}
	if len(runes) == 4 && !ended {
		runes = runes[:3]
	}
	name := string(runes)
	if name == "" || hanNotName(name) {
		return ""
	}
	if ambiguous && (len(runes) < 2 || len(runes) > 3 || !strings.ContainsRune(surnames, runes[0])) {
		return ""
	}
	return name
}

// isNameWord reports whether w can be part of a name: letters, with
// apostrophes inside ("O'Brien"), no digits.
func isNameWord(w string) bool {
	letters := false
	for _, r := range w {
		switch {
		case unicode.IsLetter(r):
			letters = true
		case unicode.IsMark(r), r == '\'', r == '’':
		default:
			return false
		}
	}
	return letters
}

// isLanguageWord reports whether t names a supported language ("English",
// "français"): "I'm French" is no name. Codes ("en", "de") do not count.
func isLanguageWord(t token) bool {
	_, ok := languageOf(t)
	return ok
}

// languageOf returns the supported language t names, if any.
func languageOf(t token) (nadine.Language, bool) {
	if utf8.RuneCountInString(t.norm) < 3 {
		return "", false
	}
	if l, err := nadine.ParseLanguage(t.orig); err == nil {
		return l, true
	}
	if l, err := nadine.ParseLanguage(t.norm); err == nil {
		return l, true
	}
	return "", false
}

func startsUpper(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// titleCase capitalizes a word written all in lowercase or all in
// uppercase ("alex", "ALEX" → "Alex") and keeps mixed case ("McDonald").
func titleCase(w string) string {
	lower, upper := true, true
	for _, r := range w {
		if unicode.IsUpper(r) {
			lower = false
		}
		if unicode.IsLower(r) {
			upper = false
		}
	}
	if !lower && !upper {
		return w
	}
	var b strings.Builder
	for i, r := range w {
		if i == 0 {
			b.WriteRune(unicode.ToUpper(r))
		} else {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
