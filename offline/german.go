package offline

import (
	"strings"
	"sync"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// German rules of the round that wrote probe9 (docs/offline.md, "Round
// de11"): spoken German drops a verb's final e and puts an article before a
// first name; both hid introductions and questions from rules that match
// the examples' words.

// germanI is the German "I" of the examples and of dialect ("i
// hoaß"): a verb next to one is in the first person, which ends in -e.
var germanI = map[string]bool{"ich": true, "i": true}

// germanExamples are the German examples, tokenized once for the rules
// that read their words.
var germanExamples = sync.OnceValue(func() [][]intents.Token {
	var out [][]intents.Token
	s, err := Examples()
	if err != nil {
		return out // the model's training reports it
	}
	for _, ex := range s.Examples {
		if ex.Lang == nadine.German {
			out = append(out, intents.Tokenize(ex.Text))
		}
	}
	return out
})

// germanWordCounts are how often each folded word occurs in the German
// examples.
var germanWordCounts = sync.OnceValue(func() map[string]int {
	out := map[string]int{}
	for _, toks := range germanExamples() {
		for _, t := range toks {
			out[t.Norm]++
		}
	}
	return out
})

// withApocope is toks with the dropped e of German verbs given back
// (restoreApocope), for finding where a name goes; toks in other languages.
func withApocope(toks []intents.Token, lang nadine.Language) []intents.Token {
	if lang != nadine.German {
		return toks
	}
	if out, ok := restoreApocope(toks); ok {
		return out
	}
	return toks
}

// restoreApocope gives back the final e that spoken German drops from a
// verb in the first person ("ich wär die Birgit", "wie heiß ich?", "ich
// hätt gern"): a word next to "ich" that the examples write with an e more
// often than without is read with it. The examples write "ich wäre die
// {name}", and the contexts that find a name match their words. Only
// there: the classifier also learnt the examples' own "ich komm", and a
// question's "heiß ich" is told by its pronoun (askedOwnName). ok is false
// when nothing changed.
func restoreApocope(toks []intents.Token) (out []intents.Token, ok bool) {
	counts := germanWordCounts()
	for i, t := range toks {
		if t.Han || strings.HasSuffix(t.Norm, "e") || !nextToFirstPerson(toks, i) {
			continue
		}
		if full := t.Norm + "e"; counts[full] > counts[t.Norm] {
			if out == nil {
				out = append([]intents.Token(nil), toks...)
			}
			out[i].Norm = full
		}
	}
	return out, out != nil
}

// nextToFirstPerson reports whether token i stands right before or after a
// German "I" in its clause.
func nextToFirstPerson(toks []intents.Token, i int) bool {
	for _, j := range []int{i - 1, i + 1} {
		if j >= 0 && j < len(toks) && toks[j].Clause == toks[i].Clause && germanI[toks[j].Norm] {
			return true
		}
	}
	return false
}

// germanNameArticles are the words the German examples put between a
// name's context and the name: the last word of a context whose words
// before it are a context too ("der" of "ich bin der {name}" beside "ich
// bin {name}", "d" of "ich bi d {name}", "übrigens", "einfach"), in two
// examples at least. Read off the examples, so every context takes them:
// "hier ist der Heinz" as "ich bin der Jonas".
var germanNameArticles = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	s, err := Examples()
	if err != nil {
		return out // the model's training reports it
	}
	contexts := map[string]bool{}
	var lefts [][]string
	for _, ex := range s.Examples {
		if ex.Lang != nadine.German {
			continue
		}
		before, _, ok := strings.Cut(ex.Text, "{name}")
		if !ok {
			continue
		}
		var words []string
		toks := intents.Tokenize(before)
		for i := len(toks) - 1; i >= 0 && toks[i].Clause == toks[len(toks)-1].Clause; i-- {
			words = append([]string{toks[i].Norm}, words...)
		}
		if len(words) > 0 {
			contexts[strings.Join(words, " ")] = true
			lefts = append(lefts, words)
		}
	}
	seen := map[string]int{}
	for _, words := range lefts {
		// The words before the last, or their end, are a context: "ich
		// bin" before "der", "ich bin" of "grüß gott ich bin" before "der".
		for k := 0; k < len(words)-1; k++ {
			if contexts[strings.Join(words[k:len(words)-1], " ")] {
				seen[words[len(words)-1]]++
				break
			}
		}
	}
	for w, n := range seen {
		// Twice at least: a learner's "ich bin heiße {name}" shows no
		// word that goes between.
		if n >= 2 {
			out[w] = true
		}
	}
	return out
})

// afterNameArticle is where a name starts after a context that ends before
// from: past an article the German examples put there ("hier ist der opa
// heinz" as "ich bin der Jonas"), from itself otherwise.
func afterNameArticle(toks []intents.Token, from, to int, lang nadine.Language) int {
	if lang != nadine.German || from == 0 || from+1 >= to || toks[from-1].Clause != toks[from].Clause || !germanNameArticles()[toks[from].Norm] {
		return from
	}
	return from + 1
}

// germanMe and germanYou are the German pronouns of the speaker and of the
// one spoken to (the dialect "i" too).
var (
	germanMe  = map[string]bool{"ich": true, "i": true, "mich": true, "mir": true, "mein": true, "meine": true, "meinen": true, "meinem": true, "meiner": true}
	germanYou = map[string]bool{"du": true, "dich": true, "dir": true, "dein": true, "deine": true, "deinen": true, "deinem": true, "deiner": true,
		"sie": true, "ihnen": true, "ihr": true, "ihre": true, "ihren": true, "ihrem": true, "ihrer": true, "euch": true}
)

// askedOwnName reads a question of a name that speaks only of the speaker
// as asking her to remember theirs ("Und wie heiß ich?", "wie war nochmal
// mein Name?"): the classifier splits it between her name and the
// visitor's, and the pronoun says whose; the two readings' sum goes to
// remembering.
func askedOwnName(r intents.Result, toks []intents.Token) intents.Result {
	me, you := false, false
	for _, t := range toks {
		me = me || germanMe[t.Norm]
		you = you || germanYou[t.Norm]
	}
	asked := r.Prob("persona.name") + r.Prob("remember")
	if !me || you || r.Prob("persona.name") == 0 || asked < r.Top().Prob {
		return r // "Ich heiße Max" stays an introduction
	}
	out := intents.Result{Languages: r.Languages, Labels: make([]intents.Scored, 0, len(r.Labels))}
	for _, s := range r.Labels {
		switch s.Label {
		case "persona.name":
			continue
		case "remember":
			s.Prob += r.Prob("persona.name")
		}
		out.Labels = append(out.Labels, s)
	}
	sortScored(out.Labels)
	return out
}

// heavyStates are the feelings a day's effort leaves, which good news
// told before them does not outweigh.
var heavyStates = map[string]bool{"feeling.tired": true, "feeling.stress": true, "feeling.sick": true, "feeling.sad": true}

// statedState is the state a German (or French) speaker says of themself after
// telling what happened ("Ich habe heute meinen Marathon gelaufen und bin
// kaputt", "wir haben geheiratet und ich bin einfach nur müde"): the whole
// reads as good news, the event's words outweighing the state's, but the
// stretch from the last "bin" on, read plainly as tiredness, stress,
// sickness or sadness, is what the person tells; the event is its cause.
func (e *Engine) statedState(r reading) (candidate, bool) {
	if stateVerbs[r.lang] == nil || r.whole.Top().Label != "feeling.news_good" || asking(r.toks, r.text) {
		return candidate{}, false
	}
	k := -1
	for i, t := range r.toks {
		if stateVerbs[r.lang][t.Norm] {
			k = i
		}
	}
	if k > 0 && statePronouns[r.lang][r.toks[k-1].Norm] {
		k-- // "und ich bin müde", "mais je suis stressé"
	}
	if k <= 0 || k >= len(r.toks)-1 {
		return candidate{}, false // no event before the state, or no state
	}
	p := e.classifyPart(r.toks[k:]).Top()
	if !heavyStates[p.Label] || p.Prob < wholeSure {
		return candidate{}, false
	}
	return candidate{p.Label, p.Prob}, true
}
