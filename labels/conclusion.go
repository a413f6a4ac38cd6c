package labels

import (
	"regexp"
	"strings"

	"github.com/nadine-robot/nadine/answer"
)

// How a label is read from an answer that is not a label alone: as the
// model's conclusion, not as the first word that matches. A model that
// reasons first ("The person says hello, which looks like a greeting, but
// they already introduced themselves, so: continue_conversation") names
// several labels on the way and its answer last; a model that answers
// first names it first and explains after.

var (
	// labelledLineRE is a line that gives the answer under a name
	// ("Intent: first_greeting", "**Final answer** - joy").
	labelledLineRE = regexp.MustCompile(`(?im)^[ \t>*_#-]{0,6}(?:final[ _]?)?(?:intent|label|answer|classification|class|category|conclusion|result|emotion|prediction|output|réponse|antwort|意图|答案|结论)[ \t*_]{0,3}(?:is)?[ \t]*[:=：-][ \t*_"'` + "`" + `]*(.+?)[ \t*_"'` + "`" + `.]*$`)
	// negationWords deny what follows ("not a greeting", "rather than").
	negationWords = keySet("not", "no", "isnt", "never", "instead", "than", "unlike", "pas", "nicht", "kein", "keine", "不是", "而不是", "非")
)

// Conclusion returns the label an answer concludes with: models write the
// label first then why, or reason first, and deny labels ("not a greeting").
func (t Table) Conclusion(text string) (string, bool) {
	s := strings.TrimSpace(answer.Preamble(text))
	if l, ok := t.Lookup(strings.Trim(s, " \t\n.!\"'`*")); ok {
		return l, true
	}
	if ms := labelledLineRE.FindAllStringSubmatch(s, -1); len(ms) > 0 {
		for i := len(ms) - 1; i >= 0; i-- {
			v := ms[i][1]
			if l, ok := t.Lookup(v); ok {
				return l, true
			}
			if l, ok := t.findLast(Words(v)); ok {
				return l, true
			}
		}
	}
	words := Words(s)
	if l, n, ok := t.at(words, 0, t.canonical); ok && answeredFirst(s, n) {
		return l, true
	}
	return t.findLast(words)
}

// answeredFirst reports whether the first n words end a sentence or clause:
// the label given, then why.
func answeredFirst(s string, n int) bool {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' })
	if len(fields) <= n {
		return true
	}
	last := fields[n-1]
	return strings.ContainsAny(last[len(last)-1:], ".,;:!-—)") || strings.HasPrefix(fields[n], "(") || strings.HasPrefix(fields[n], "-")
}

// findLast returns the last label named and not denied; of labels named
// together ("joy and some surprise") the first is the one meant.
func (t Table) findLast(words []string) (string, bool) {
	for _, m := range []map[string]string{t.canonical, t.synonyms} {
		for i := len(words) - 1; i >= 0; i-- {
			l, _, ok := t.at(words, i, m)
			if !ok || denied(words, i) {
				continue
			}
			for j := i - 1; j >= 0 && j >= i-4; j-- {
				if prev, n, ok := t.at(words, j, m); ok && j+n <= i && joined(words[j+n:i]) && !denied(words, j) {
					l, i = prev, j
				}
			}
			return l, true
		}
	}
	return "", false
}

// joinWords join labels named together.
var joinWords = keySet("and", "with", "plus", "also", "et", "avec", "und", "mit", "和", "与", "及")

// joined reports whether the words between two labels join them: a
// conjunction, and at most two words more ("and some").
func joined(between []string) bool {
	if len(between) == 0 || len(between) > 3 {
		return false
	}
	for _, w := range between {
		if joinWords[w] {
			return true
		}
	}
	return false
}

// at returns the label of m that starts at words[i] (runs of up to three
// words) and its length in words.
func (t Table) at(words []string, i int, m map[string]string) (string, int, bool) {
	for n := min(3, len(words)-i); n >= 1; n-- {
		if l, ok := m[strings.Join(words[i:i+n], "")]; ok {
			return l, n, true
		}
	}
	return "", 0, false
}

// denied reports whether one of the two words before words[i] denies it.
func denied(words []string, i int) bool {
	for j := max(0, i-2); j < i; j++ {
		if negationWords[words[j]] {
			return true
		}
	}
	return false
}
