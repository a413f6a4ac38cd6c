package agents

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	tokens "github.com/nadine-robot/nadine/intents"
)

// A fact the memory model extracts is remembered only when the person's own
// words hold it. A model fills a field it should leave empty with what it
// knows of the field ("not specified", "nicht angegeben", "未提及", "the
// company the user works for", "{{company}}"), in any language and wording,
// and the offline engine says a remembered fact aloud ("Ich weiß noch, dass
// Sie bei {fact} arbeiten."). No list of such words can be complete; the
// person's words are the test: docs/model-answers.md, "Facts the person said".

// groundWords are the words a person said, folded, and their stems, so
// that a fact may be another form of a word they said ("ingénieure" for
// "ingénieur", the inflection the offline engine's words are read with).
type groundWords struct {
	words map[string]bool
	stems map[string]int
}

func newGroundWords(said []string) groundWords {
	g := groundWords{words: map[string]bool{}}
	for _, s := range said {
		for _, t := range tokens.Tokenize(s) {
			g.words[t.Norm] = true
		}
	}
	g.stems = tokens.StemsOf(g.words)
	return g
}

// said reports whether the person said the folded word w, or another form
// of it.
func (g groundWords) said(w string) bool { return g.words[w] || tokens.FormOf(g.stems, w) }

// holds reports whether the person said value: at least half of its
// content words (of four letters or more, with a digit, or a Chinese
// character; every word when it has none) are among theirs.
func (g groundWords) holds(value string) bool {
	toks := tokens.Tokenize(value)
	var content []string
	for _, t := range toks {
		if t.Han || utf8.RuneCountInString(t.Norm) >= 4 || strings.IndexFunc(t.Norm, unicode.IsDigit) >= 0 {
			content = append(content, t.Norm)
		}
	}
	if len(content) == 0 {
		for _, t := range toks {
			content = append(content, t.Norm)
		}
	}
	if len(content) == 0 {
		return false
	}
	found := 0
	for _, w := range content {
		if g.said(w) {
			found++
		}
	}
	return 2*found >= len(content)
}

// holdsAll reports whether the person said every word of value: a name
// is theirs whole, or it is no name they gave ("Guest", "The visitor",
// "Unbekannt", a surname the model added).
func (g groundWords) holdsAll(value string) bool {
	toks := tokens.Tokenize(value)
	for _, t := range toks {
		if !g.said(t.Norm) {
			return false
		}
	}
	return len(toks) > 0
}

// grounded keeps the name and the facts of x the person's words hold and
// returns the values left out. A name must be said whole: a model that
// names a stranger "Guest" would make every stranger one person, sharing
// one profile and its memories.
func grounded(x Extraction, said []string) (Extraction, []string) {
	g := newGroundWords(said)
	var dropped []string
	if n := strings.TrimSpace(x.UserName); n != "" && !g.holdsAll(n) {
		dropped = append(dropped, n)
		x.UserName = ""
	}
	keep := func(v string) string {
		if v = strings.TrimSpace(v); v == "" || g.holds(v) {
			return v
		}
		dropped = append(dropped, v)
		return ""
	}
	keepAll := func(vs []string) []string {
		var out []string
		for _, v := range vs {
			if v = keep(v); v != "" {
				out = append(out, v)
			}
		}
		return out
	}
	x.CurrentCompany, x.CurrentPosition, x.Location = keep(x.CurrentCompany), keep(x.CurrentPosition), keep(x.Location)
	x.Hobbies, x.Interests = keepAll(x.Hobbies), keepAll(x.Interests)
	return x, dropped
}

// personSaid returns what the person said: the latest message and their
// recent ones (Nadine's are hers, not theirs).
func personSaid(recent []nadine.Message, msg string) []string {
	out := []string{msg}
	for _, m := range recent {
		if m.Role == nadine.RoleUser {
			out = append(out, m.Content)
		}
	}
	return out
}
