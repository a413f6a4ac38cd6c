package offline

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/spoken"
)

// Knowledge-base answers.
const (
	// knowledgeK is how many sections a question retrieves.
	knowledgeK = 3
	// minKnowledgeScore is the similarity a section needs to answer; with
	// sharesContent it keeps out texts sharing only function words (see docs).
	minKnowledgeScore = 0.22
	// maxWords bounds a spoken reply (Chinese: maxHanRunes characters).
	maxWords    = 30
	maxHanRunes = 45
)

// knowledgeAnswer is what the knowledge base says to a question.
type knowledgeAnswer struct {
	fact   string          // a built-in section: the fact it states
	text   string          // an ingested section: the sentences to say
	lang   nadine.Language // the language of text
	source string          // the section's file and title, for the trace
	score  float64
}

// searchKnowledge returns the best close-enough section's answer; after a cue
// named a fact, an ingested section answers only if it beats every built-in one.
func (t *turn) searchKnowledge(text, cueFact string) (knowledgeAnswer, bool) {
	e := t.e
	if e.kb == nil || e.emb == nil || strings.TrimSpace(text) == "" {
		return knowledgeAnswer{}, false
	}
	chunks, ok := t.retrieveTraced(text)
	if !ok {
		return knowledgeAnswer{}, false
	}
	q := contentWords(text)
	best, ok := e.bestSection(chunks, q, cueFact)
	if !ok {
		return knowledgeAnswer{}, false
	}
	if fact, builtin := e.builtinFact(best.KnowledgeChunk); builtin {
		return knowledgeAnswer{fact: fact, source: best.Source + " > " + best.Title, score: best.Score}, true
	}
	return t.excerpt(best, q)
}

// retrieveTraced is retrieve, recorded in the turn's trace; a failure is
// logged (unless the turn was cancelled) and is no answer.
func (t *turn) retrieveTraced(text string) ([]nadine.ScoredChunk, bool) {
	tr := nadine.TraceFrom(t.ctx)
	start := time.Now()
	rec := nadine.Retrieval{Kind: "knowledge", Query: text, Start: start, Step: nadine.StepOf(t.ctx).ID}
	chunks, err := t.retrieve(text)
	rec.Duration = time.Since(start)
	if err != nil {
		rec.Note = "error: " + err.Error()
		tr.AddRetrieval(rec)
		tr.Fail("offline:knowledge", err)
		if t.ctx.Err() == nil { // a cancelled turn's search is no outage
			t.e.log.Warn("offline: knowledge base unavailable", "err", err)
		}
		return nil, false
	}
	for _, c := range chunks {
		rec.Results = append(rec.Results, nadine.RetrievedItem{ID: strconv.FormatInt(c.ID, 10), Text: c.Title, Score: c.Score})
	}
	tr.AddRetrieval(rec)
	return chunks, true
}

// bestSection picks the first close-enough section sharing a word of q; of
// one document's close sections, the earlier, which says what the subject is.
func (e *Engine) bestSection(chunks []nadine.ScoredChunk, q []string, cueFact string) (nadine.ScoredChunk, bool) {
	var cands []nadine.ScoredChunk
	for _, c := range chunks {
		_, builtin := e.builtinFact(c.KnowledgeChunk)
		if cueFact != "" && builtin && len(cands) == 0 {
			return nadine.ScoredChunk{}, false // a built-in section ranks first: the cue's fact answers
		}
		if c.Score >= minKnowledgeScore && sharesContent(q, c.Text) {
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		return nadine.ScoredChunk{}, false
	}
	best := cands[0]
	if _, builtin := e.builtinFact(best.KnowledgeChunk); builtin {
		return best, true
	}
	for _, c := range cands[1:] {
		if c.Source == best.Source && c.Score >= best.Score-0.15 && c.ID < best.ID && overlap(q, c.Text) >= overlap(q, best.Text) {
			best = c
		}
	}
	return best, true
}

// excerpt is the spoken answer of an ingested section, in the language it
// is written in.
func (t *turn) excerpt(best nadine.ScoredChunk, q []string) (knowledgeAnswer, bool) {
	say := spokenExcerpt(best.KnowledgeChunk, q)
	if say == "" {
		return knowledgeAnswer{}, false
	}
	lang := t.session
	if d := t.e.detector; d != nil {
		if l, _, ok := d.Detect(say); ok {
			lang = l
		} else if l, _, ok := d.Detect(best.Text); ok {
			lang = l
		}
	}
	return knowledgeAnswer{text: say, lang: lang, source: best.Source + " > " + best.Title, score: best.Score}, true
}

// retrieve embeds the question and searches the knowledge base.
func (t *turn) retrieve(text string) ([]nadine.ScoredChunk, error) {
	v, err := nadine.EmbedOne(t.ctx, t.e.emb, text)
	if err != nil {
		return nil, err
	}
	return t.e.kb.SearchKnowledge(t.ctx, v, t.e.emb.Name(), knowledgeK)
}

// builtinFact returns the fact a built-in section states.
func (e *Engine) builtinFact(c nadine.KnowledgeChunk) (string, bool) {
	if !strings.HasPrefix(c.Source, builtinSource) {
		return "", false
	}
	f, ok := e.sections[c.Title]
	return f, ok
}

// contentWords are the words that carry a question's subject: no function
// words, not her name, four letters or more (Chinese: every character pair).
func contentWords(text string) []string {
	var out []string
	for _, tok := range analyze(text).tokens {
		w := unelided(tok.norm)
		if hasHan(w) {
			r := []rune(w)
			for i := 0; i+1 < len(r); i++ {
				if !strings.ContainsRune(hanFunction, r[i]) || !strings.ContainsRune(hanFunction, r[i+1]) {
					out = append(out, string(r[i:i+2]))
				}
			}
			continue
		}
		if utf8.RuneCountInString(w) < 4 || functionWords[w] {
			continue
		}
		out = append(out, w)
	}
	return out
}

// hanFunction are Chinese characters that carry no subject.
const hanFunction = "的了吗呢吧啊是在有和我你您他她它们这那什么怎么哪谁请问一个告诉讲介绍下知道"

// functionWords are words of four letters or more that say nothing about
// a subject, in the four languages (normalized spelling).
var functionWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`what when where which who whom whose that this these those there their about
		tell could would should know does have with from your yours please nadine something anything explain
		thing things much many more most some very really like just also into over than then them they
		quoi quel quelle quels quelles quand comment pourquoi avec pour dans votre vous nous sont savez
		parlez-moi est-ce qu'est-ce c'est cette chose quelque connaissez-vous expliquez-moi moi-meme
		sagen sagt sind bist eine einer einem einen dein deine ihre ihren uber ueber etwas wissen weisst
		erzahl erzaehl erzaehlen erklar erklaer kennst kennen nicht noch doch`) {
		m[normalizeWord(w)] = true
	}
	return m
}()

// sharesContent reports whether a section has a word starting with one of the
// question's content words ("robots" matches "robot").
func sharesContent(q []string, text string) bool {
	if len(q) == 0 {
		return false
	}
	var words []string
	han := ""
	for _, tok := range analyze(text).tokens {
		if hasHan(tok.norm) {
			han += tok.norm
			continue
		}
		words = append(words, tok.norm)
	}
	for _, w := range q {
		if hasHan(w) {
			if strings.Contains(han, w) {
				return true
			}
			continue
		}
		stem := w
		if r := []rune(w); len(r) > 5 {
			stem = string(r[:len(r)-1]) // "robots" and "robot", "pastries" and "pastrie…"
		}
		for _, x := range words {
			if strings.HasPrefix(x, stem) || strings.HasPrefix(w, x) && utf8.RuneCountInString(x) >= 4 {
				return true
			}
		}
	}
	return false
}

// spokenExcerpt says the sentence sharing most content words with the question,
// and the next if both fit in maxWords; a longer one is cut at a clause.
func spokenExcerpt(c nadine.KnowledgeChunk, q []string) string {
	body := strings.TrimSpace(strings.TrimPrefix(c.Text, c.Title))
	var sentences []string
	for _, para := range strings.Split(body, "\n") {
		for _, s := range spoken.SplitSentences(para) {
			if s = strings.TrimSpace(strings.TrimLeft(s, "#*->•· ")); s != "" && hasLetter(s) {
				sentences = append(sentences, s)
			}
		}
	}
	if len(sentences) == 0 {
		return ""
	}
	best, bestScore := 0, -1
	for i, s := range sentences {
		if n := overlap(q, s); n > bestScore {
			best, bestScore = i, n
		}
	}
	out := sentences[best]
	if best+1 < len(sentences) {
		if both := out + sentenceJoin(out) + sentences[best+1]; spokenWords(both) <= maxWords {
			out = both
		}
	}
	return cutToWords(out)
}

// sentenceJoin is the space between two sentences: none after a Chinese
// full stop.
func sentenceJoin(s string) string {
	if r, _ := utf8.DecodeLastRuneInString(s); unicode.Is(unicode.Han, r) || r == '。' || r == '！' || r == '？' {
		return ""
	}
	return " "
}

// overlap counts the question's content words in s.
func overlap(q []string, s string) int {
	n := 0
	for _, w := range q {
		if sharesContent([]string{w}, s) {
			n++
		}
	}
	return n
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// MaxWords is the most words a reply of the engine says (the 30-word rule;
// see SpokenWords).
const MaxWords = maxWords

// SpokenWords counts words as the 30-word rule does: Latin words, plus one per
// 1.5 Chinese characters (Chinese has no spaces).
func SpokenWords(s string) int { return spokenWords(s) }

func spokenWords(s string) int {
	words, han := 0, 0
	in := false
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Han, r):
			han++
			in = false
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’' || r == '-':
			if !in {
				words++
			}
			in = true
		default:
			in = false
		}
	}
	return words + (han*2+2)/3
}

// cutToWords shortens s to maxWords words (about maxHanRunes Chinese
// characters), at a clause break in the second half, else a whole word.
func cutToWords(s string) string {
	if spokenWords(s) <= maxWords {
		return s
	}
	runes := []rune(s)
	n := 0 // runes[:n] fits
	for n < len(runes) && spokenWords(string(runes[:n+1])) <= maxWords {
		n++
	}
	cut := -1
	for i := n - 1; i > n/2; i-- {
		if isClausePunct(runes[i]) {
			cut = i
			break
		}
	}
	if cut < 0 {
		cut = n
		if !unicode.Is(unicode.Han, runes[n-1]) && (unicode.IsLetter(runes[n]) || unicode.IsDigit(runes[n])) {
			for i := n - 1; i > 0; i-- { // inside a word: back to its start
				if runes[i] == ' ' {
					cut = i
					break
				}
			}
		}
	}
	out := strings.TrimRight(string(runes[:cut]), " ,;:，；：、")
	if hasHan(out) {
		return out + "。"
	}
	return out + "."
}

func isClausePunct(r rune) bool { return strings.ContainsRune(",;:，；：、", r) }
