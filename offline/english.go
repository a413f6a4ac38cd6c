package offline

import (
	"strings"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// English rules of the round that wrote probe10 (docs/offline.md, "Round
// en12"): visitors who type on the kiosk or text-speak stretch and swap
// letters ("hiiii", "waht", "thnks"), and an adverb after "it's" is read
// as a name ("its basically lunchtime").

// adverbSuffixes end English adverbs of manner and degree; no first name
// in common use ends so (Emily, Holly, Beverly and Stanley do not).
var adverbSuffixes = []string{"ically", "ually", "ously", "fully", "ively", "lessly", "edly", "ably", "ibly", "ntly", "ately", "ishly", "rally"}

// adverbial reports whether t is a lowercase English adverb by its ending:
// after "it's" or "I'm" it says how of what follows, not who.
func adverbial(t intents.Token, lang nadine.Language) bool {
	if lang != nadine.English || startsUpper(t.Text) {
		return false
	}
	for _, s := range adverbSuffixes {
		if strings.HasSuffix(t.Norm, s) && len(t.Norm) > len(s)+1 {
			return true
		}
	}
	return false
}

// minRespelled is the shortest lowercase word read as a misspelling: a
// shorter one ("lol", "mia") is as likely slang or a name.
const minRespelled = 4

// respelled gives each lowercase English word no example uses the example
// word it is one slip from, when exactly one is: letters stretched
// ("hiiii", "byeee"), two swapped ("waht", "nmae") or one dropped
// ("thnks"). A word capitalized inside its clause is left alone (it may be
// a name), and so are words the examples give as names. ok is false when nothing changed.
func respelled(toks []intents.Token, lang nadine.Language) (out []intents.Token, ok bool) {
	if lang != nadine.English {
		return toks, false
	}
	known := wordLabels()[lang]
	for i, t := range toks {
		opens := i == 0 || toks[i-1].Clause != t.Clause
		if t.Han || startsUpper(t.Text) && !opens || len(known[t.Norm]) > 0 || exampleNames()[t.Norm] || !asciiLetters(t.Norm) {
			continue
		}
		w := slipFrom(t.Norm, func(s string) bool { return len(known[s]) > 0 && !exampleNames()[s] })
		if w == "" {
			continue
		}
		if out == nil {
			out = append([]intents.Token(nil), toks...)
		}
		out[i].Norm = w
	}
	if out == nil {
		return toks, false
	}
	return out, true
}

// slipFrom is the one known word w is a slip of, or "": stretched letters
// are tried first (any length), then a swap or a dropped letter (words of
// minRespelled letters or more).
func slipFrom(w string, known func(string) bool) string {
	if s := unstretched(w, known); s != "" {
		return s
	}
	if utf8.RuneCountInString(w) < minRespelled {
		return ""
	}
	found := map[string]bool{}
	for i := 0; i+1 < len(w); i++ {
		if w[i] == w[i+1] {
			continue
		}
		if s := w[:i] + string(w[i+1]) + string(w[i]) + w[i+2:]; known(s) {
			found[s] = true
		}
	}
	for i := 0; i <= len(w); i++ {
		for c := byte('a'); c <= 'z'; c++ {
			if s := w[:i] + string(c) + w[i:]; known(s) {
				found[s] = true
			}
		}
	}
	if len(found) != 1 {
		return ""
	}
	for s := range found {
		return s
	}
	return ""
}

// unstretched is w with its runs of three or more of a letter ("hiiii")
// shortened to the one or two that make a known word, or "".
func unstretched(w string, known func(string) bool) string {
	two := intents.ShortenRuns(w, 2)
	if two == w {
		return "" // no run of three
	}
	for _, s := range []string{two, intents.ShortenRuns(w, 1)} {
		if known(s) {
			return s
		}
	}
	return ""
}

// asciiLetters reports whether w is only the letters a to z, which the
// slips above are made of.
func asciiLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return w != ""
}

// tellsOwnFeeling reports whether rest reads as a feeling or news told
// (its top label, however weak): the word an answer to her greeting opens with before it is a sigh
// ("ugh my train was cancelled"), not a name, unless "and" joins them
// ("hey beverly and i'm so happy to be here"). English only: French and
// German introductions go on with what reads as a feeling ("thibault je
// visite avec mes parents").
func (e *Engine) tellsOwnFeeling(rest []intents.Token) bool {
	r := e.classifyPart(rest)
	return strings.HasPrefix(r.Top().Label, "feeling.") && len(r.Languages) > 0 && r.Languages[0].Language == nadine.English
}

// clauseTags end a Singaporean English clause without adding to it: the
// particles "lah", "leh", "lor", "sia", "hor", "meh" and the yes/no tag "or
// not" ("you know who I am or not", "can forget me or not" ask what the
// clause before asks).
var clauseTags = [][]string{{"or", "not"}, {"lah"}, {"leh"}, {"lor"}, {"sia"}, {"hor"}, {"meh"}}

// untaggedClauses is toks without the tags that end their clauses in
// English, when a clause keeps words of its own; ok is false when none was
// dropped.
func untaggedClauses(toks []intents.Token, lang nadine.Language) (out []intents.Token, ok bool) {
	if lang != nadine.English {
		return toks, false
	}
	for i := 0; i < len(toks); {
		end := clauseEnd(toks, i)
		to := end
		for _, tag := range clauseTags {
			n := len(tag)
			if to-n <= i || !intents.WordsAt(toks, to-n, tag) {
				continue
			}
			to -= n
			break
		}
		out = append(out, toks[i:to]...)
		ok = ok || to < end
		i = end
	}
	if !ok {
		return toks, false
	}
	return out, true
}
