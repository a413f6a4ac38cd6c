package offline

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/lexical"
)

// Routing to the knowledge base by topic. A question about what the
// built-in knowledge base says ("the professor who started all this, what
// is she known for?") reaches it even when no knowledge example resembles
// it: when the classifier places the utterance under none of its intents,
// the utterance is compared, in the lexical embedder's space, with each
// knowledge fact's passage in the utterance's language (what Nadine says
// of the fact there, a translation of the built-in document's section),
// and the closest passage answers when it is close enough and shares a
// content word. What no answer passage takes is compared the same way with
// the questions the fact's examples ask (their words that few intents use),
// with its own threshold (docs/offline.md gives both calibrations).

// topicThreshold is the similarity a fact's passage needs to take an utterance
// no intent took; TestTopicCalibration recomputes it on held-out examples.
const topicThreshold = 0.15

// askedThreshold is the similarity the questions of a fact need to take
// what no answer passage took; TestTopicAskedCalibration recomputes it.
const askedThreshold = 0.25

// topicDims is the dimension of the passages' lexical vectors.
const topicDims = 512

// topicFacts are the knowledge base's facts, not the persona's: a persona
// question the classifier missed is not guessed from shared words.
var topicFacts = []string{fMiralab, fUnige, fThalmann, fSocialRobots, fNTU, fHowWorks, fHearing, fSeeing, fThinking,
	fSpeaking, fMemory, fRecognize, fExpressions, fRealWorld, fPersonality, fAnswering, fSinging}

// topicPassage is one fact's passage in one language: what she says of it,
// or what visitors ask of it.
type topicPassage struct {
	fact  string
	text  string
	vec   []float32
	words []string // its Latin words, normalized
	han   string   // its Chinese characters, run together
}

// has reports whether the passage holds content word w: a word starting with it,
// a German compound ending with it ("Forschungslabor"), or its characters.
func (p *topicPassage) has(w string) bool {
	if hasHan(w) {
		return strings.Contains(p.han, w)
	}
	stem := w
	if r := []rune(w); len(r) > 5 {
		stem = string(r[:len(r)-1])
	}
	for _, x := range p.words {
		if strings.HasPrefix(x, stem) || strings.HasPrefix(w, x) && utf8.RuneCountInString(x) >= 4 ||
			utf8.RuneCountInString(w) >= 5 && strings.HasSuffix(x, w) {
			return true
		}
	}
	return false
}

func newTopicPassage(emb *lexical.Embedder, fact, text string) topicPassage {
	p := topicPassage{fact: fact, text: text, vec: emb.Vector(text)}
	for _, tok := range analyze(text).tokens {
		if hasHan(tok.norm) {
			p.han += tok.norm
		} else {
			p.words = append(p.words, unelided(tok.norm))
		}
	}
	return p
}

// topicIndex holds the passages of every language.
type topicIndex struct {
	emb      *lexical.Embedder
	passages map[nadine.Language][]topicPassage
	// asked are the questions the examples ask of each fact, as passages.
	asked map[nadine.Language][]topicPassage
	// spread counts the intents whose examples use each word: a word many share
	// ("speak", "tell") says nothing of a topic.
	spread map[nadine.Language]map[string]int
	// stated maps each rendered wording of an institution's fact to the fact:
	// a reply that holds one stated it.
	stated map[string]string
}

// maxSpread is the most intents whose examples may use a word that ties an
// utterance to a topic.
const maxSpread = 3

// wordSpread counts the labels whose examples use each content word.
var wordSpread = sync.OnceValue(func() map[nadine.Language]map[string]int {
	out := map[nadine.Language]map[string]int{}
	s, err := Examples()
	if err != nil {
		return out // the model's training reports it
	}
	seen := map[nadine.Language]map[string]map[string]bool{}
	for _, ex := range s.Examples {
		if seen[ex.Lang] == nil {
			seen[ex.Lang] = map[string]map[string]bool{}
		}
		for _, w := range contentWords(ex.Text) {
			if seen[ex.Lang][w] == nil {
				seen[ex.Lang][w] = map[string]bool{}
			}
			seen[ex.Lang][w][ex.Label] = true
		}
	}
	for lang, words := range seen {
		out[lang] = map[string]int{}
		for w, labels := range words {
			out[lang][w] = len(labels)
		}
	}
	return out
})

// newTopicIndex renders every knowledge fact's wordings in every language
// with the persona's values and embeds them, and the questions asked of it.
func (e *Engine) newTopicIndex() *topicIndex {
	return e.topicIndex(askedPassages())
}

// askedPassages are the passages of topicQuestions, embedded once per
// process: they depend on the examples only, not on the engine's persona.
var askedPassages = sync.OnceValue(func() map[nadine.Language][]topicPassage {
	return questionPassages(topicQuestions())
})

// questionPassages embeds each fact's questions per language.
func questionPassages(asked map[nadine.Language]map[string]string) map[nadine.Language][]topicPassage {
	emb := lexical.New(topicDims)
	out := map[nadine.Language][]topicPassage{}
	for _, lang := range nadine.Languages() {
		for _, f := range topicFacts {
			if q := asked[lang][f]; q != "" {
				out[lang] = append(out[lang], newTopicPassage(emb, f, q))
			}
		}
	}
	return out
}

// topicIndex builds the passages, with asked: each fact's questions per
// language, embedded.
func (e *Engine) topicIndex(asked map[nadine.Language][]topicPassage) *topicIndex {
	ix := &topicIndex{emb: lexical.New(topicDims), passages: map[nadine.Language][]topicPassage{},
		asked: asked, spread: wordSpread(), stated: map[string]string{}}
	t := &turn{e: e}
	for _, lang := range nadine.Languages() {
		for _, f := range topicFacts {
			// All its wordings together: one sentence alone was measured
			// to route worse (docs/offline.md).
			text := ""
			for _, w := range e.replies[lang][aboutKey(f)] {
				said := t.render(w, slots{}, lang)
				text += said + " "
				if _, place := placeFacts[f]; place {
					ix.stated[said] = f
				}
			}
			if text == "" {
				continue
			}
			ix.passages[lang] = append(ix.passages[lang], newTopicPassage(ix.emb, f, text))
		}
	}
	return ix
}

// statedPlace is the institution whose fact a reply of hers stated, if
// any: a question right after it may name it by a pronoun alone ("when did
// it start", "und seit wann gibt es das", "它是哪年成立的").
func (ix *topicIndex) statedPlace(reply string) string {
	for said, f := range ix.stated {
		if strings.Contains(reply, said) {
			return f
		}
	}
	return ""
}

// topicQuestions are, by language and fact, the words of its knowledge
// examples that few intents use: her one-sentence answer shares few words
// with what visitors ask of it ("Sensoren", "wahrnehmen" for what she sees).
var topicQuestions = sync.OnceValue(func() map[nadine.Language]map[string]string {
	return askedOf(func(int) bool { return false })
})

// askedOf is topicQuestions without the examples held reports (the
// calibration's folds).
func askedOf(held func(i int) bool) map[nadine.Language]map[string]string {
	out := map[nadine.Language]map[string]string{}
	s, err := Examples()
	if err != nil {
		return out // the model's training reports it
	}
	spread := wordSpread()
	for i, ex := range s.Examples {
		fact, ok := strings.CutPrefix(ex.Label, "knowledge.")
		if !ok || strings.Contains(ex.Text, "{") || held(i) {
			continue
		}
		if out[ex.Lang] == nil {
			out[ex.Lang] = map[string]string{}
		}
		for _, w := range contentWords(ex.Text) {
			// "sorry", "question", "wondering" tie nothing to a fact.
			if spread[ex.Lang][w] <= maxSpread {
				out[ex.Lang][fact] += " " + w
			}
		}
	}
	return out
}

// nearest returns the closest fact's passage in lang, its similarity, and whether
// it shares enough rare content words ("Eiffel", not "designed").
func (ix *topicIndex) nearest(text string, lang nadine.Language) (fact string, score float64, shares bool) {
	return ix.nearestIn(ix.passages[lang], text, lang)
}

// nearestIn is nearest among passages.
func (ix *topicIndex) nearestIn(passages []topicPassage, text string, lang nadine.Language) (fact string, score float64, shares bool) {
	// The content words alone: a long, rambling question's fillers and
	// function words would otherwise outweigh its subject.
	words := contentWords(text)
	fact, score, shares = ix.nearestWords(passages, words, lang)
	// A long utterance is also read a stretch at a time: its question is
	// the stretch closest to a passage it shares words with, whatever the
	// visitor said around it ("sorry if this is silly but I was wondering…").
	windows := topicWindows
	if lang == nadine.Chinese {
		windows = topicWindowsHan // content words are character pairs
	}
	for _, window := range windows {
		// Only what is long for the stretch: a short question is read whole.
		for i := 0; len(words) >= 2*window && i+window <= len(words); i++ {
			if f, s, sh := ix.nearestWords(passages, words[i:i+window], lang); sh && (!shares || s > score) {
				fact, score, shares = f, s, sh
			}
		}
	}
	return fact, score, shares
}

// topicWindows are the lengths, in content words, of the stretches of a
// long utterance read on their own (character pairs in Chinese).
var (
	topicWindows    = []int{3, 5}
	topicWindowsHan = []int{5, 8}
)

// nearestWords is nearest on an utterance's content words.
func (ix *topicIndex) nearestWords(passages []topicPassage, words []string, lang nadine.Language) (fact string, score float64, shares bool) {
	if len(passages) == 0 || len(words) == 0 {
		return "", 0, false
	}
	v := ix.emb.Vector(strings.Join(words, " "))
	var distinct []string
	for _, w := range words {
		if ix.spread[lang][w] <= maxSpread {
			distinct = append(distinct, w)
		}
	}
	// The closest passage among those that share enough of them, else the
	// closest.
	best := -1
	for i := range passages {
		s := cosine(v, passages[i].vec)
		n := 0
		for _, w := range distinct {
			if passages[i].has(w) {
				n++
			}
		}
		sh := n >= 2 || n >= 1 && 2*n >= len(distinct)
		if best < 0 || sh && !shares || sh == shares && s > score {
			best, score, shares = i, s, sh
		}
	}
	return passages[best].fact, score, shares
}

// topic is the knowledge fact an utterance none of the intents took is
// about, if its passage is close enough.
func (e *Engine) topic(text string, lang nadine.Language) (string, bool) {
	return e.topics.route(text, lang, topicThreshold, askedThreshold)
}

// route is topic with the thresholds of the questions and of the answers:
// the questions first (measured to route better), read whole: a stretch of
// a long question matched another fact's questions ("lab in Geneva founded").
func (ix *topicIndex) route(text string, lang nadine.Language, answers, asked float64) (string, bool) {
	if fact, score, shares := ix.nearest(text, lang); fact != "" && score >= answers && shares {
		return fact, true
	}
	if fact, score, shares := ix.nearestWords(ix.asked[lang], contentWords(text), lang); fact != "" && score >= asked && shares {
		return fact, true
	}
	return "", false
}

// named returns the fact a knowledge question names when the classifier
// read another: a rare word of the question that one fact's answer and the
// questions its examples ask hold, and no other fact's answer or questions
// ("Singapur", "Nanyang", "新加坡"), unless the classifier's fact holds one
// too. Which university a question is about is said by its name, while the
// classifier weighs the words around it ("wer hat die Uni in Singapur
// gegründet" read as Geneva's, whose questions ask who founded it).
func (ix *topicIndex) named(text string, lang nadine.Language, fact string) (string, bool) {
	// holder is the one passage of passages that holds w, else -1.
	holder := func(passages []topicPassage, w string) int {
		h := -1
		for i := range passages {
			if passages[i].has(w) {
				if h >= 0 {
					return -1
				}
				h = i
			}
		}
		return h
	}
	answers, asked := ix.passages[lang], ix.asked[lang]
	names := map[string]bool{}
	for _, w := range contentWords(text) {
		if ix.spread[lang][w] > maxSpread {
			continue
		}
		a, q := holder(answers, w), holder(asked, w)
		if a >= 0 && q >= 0 && answers[a].fact == asked[q].fact {
			names[answers[a].fact] = true
		}
	}
	if names[fact] || len(names) != 1 {
		return "", false
	}
	for f := range names {
		return f, true
	}
	return "", false
}

// readsFact reports whether the classifier gives fact more than a chance
// share of a question (one over its labels): a word the fact's answer
// names brings a question back to it only when both readings agree ("wer
// hat die uni in singapur gegründet" reads NTU 0.22 beside Geneva's, "wieso
// kannst du singen?" singing 0.04 beside seeing), not when it is a word the
// question shares with the fact by chance ("Qui est Nadia Thalmann ? Je
// vois le nom partout" reads seeing 0.002).
func (e *Engine) readsFact(text, fact string) bool {
	return e.model.Classify(text).Prob("knowledge."+fact) >= 1/float64(len(e.model.Labels()))
}

func cosine(a, b []float32) float64 {
	var dot float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
	}
	return dot // lexical vectors are L2-normalized
}

// placeFacts are the facts about a named institution, and the words that
// head its kind ("university", "lab") in the four languages' normalized
// spelling.
var placeFacts = map[string][]string{
	fUnige:   {"univ", "uni", "fac", "hochschule", "college", "ecole", "school", "schule", "institut", "大学", "学院"},
	fNTU:     {"univ", "uni", "fac", "hochschule", "college", "ecole", "school", "schule", "institut", "大学", "学院"},
	fMiralab: {"lab", "labo", "labor", "laboratory", "laboratoire", "laboratorium", "institut", "实验室", "研究所"},
}

// namedKinds are the facts of a kind that other things are named in, and
// the kind's head words: the institutions, and robots ("Qui a fabriqué
// Sophia, le robot de Hanson Robotics ?" asks of another robot).
var namedKinds = func() map[string][]string {
	m := map[string][]string{fSocialRobots: {"robot", "robots", "roboter", "robotern", "机器人"}}
	for f, heads := range placeFacts {
		m[f] = heads
	}
	return m
}()

// namesAnother reports whether a question read as an institution's fact
// names another of its kind: a word just beside the kind's head ("Oxford
// university", "l'université de Harvard", "牛津大学") that no example and no
// passage of the language holds, nor nearly holds (a misspelt "Genva" is
// Geneva's). The classifier weighs "university" and "founded"; the name
// says which.
func (ix *topicIndex) namesAnother(text string, lang nadine.Language, fact string) bool {
	heads, ok := namedKinds[fact]
	if !ok {
		return false
	}
	unknown := func(w string) bool { return ix.unknown(w, lang) }
	toks := analyze(text).tokens
	if fact == fSocialRobots && ix.namesRobot(toks, lang) {
		return true
	}
	bare := func(w string) string { // "l'universite" → "universite"
		if i := strings.LastIndexByte(w, '\''); i >= 0 {
			return w[i+1:]
		}
		return w
	}
	for i, t := range toks {
		if hasHan(t.norm) {
			for _, h := range heads {
				r := []rune(t.norm)
				at := strings.Index(t.norm, h)
				if !hasHan(h) || at < 0 {
					continue
				}
				before := []rune(t.norm[:at])
				if n := len(before); n >= 2 && len(r) > n && unknown(string(before[n-2:])) {
					return true
				}
			}
			continue
		}
		head := false
		for _, h := range heads {
			head = head || !hasHan(h) && (bare(t.norm) == h || len(h) >= 4 && strings.HasPrefix(bare(t.norm), h))
		}
		if !head {
			continue
		}
		// A question that holds no word of the fact's own but a word she
		// does not know asks of that ("le cnrs c'est quoi comme labo").
		if ix.unknownOnly(toks, lang, fact, heads) {
			return true
		}
		// The word just before or after the head, or after its "of"
		// ("university of X", "l'université de X", "Uni von X"), in its
		// clause: "J'étudie à l'EPFL. L'Université de Genève, …" asks of
		// Geneva's.
		beside := []int{i - 1, i + 1}
		if i+2 < len(toks) && linkWords[toks[i+1].norm] {
			beside = append(beside, i+2)
		}
		for _, j := range beside {
			if j < 0 || j >= len(toks) || toks[j].clause != t.clause {
				continue
			}
			w := bare(toks[j].norm)
			if !hasHan(w) && utf8.RuneCountInString(w) >= 4 && !functionWords[w] && unknown(w) {
				return true
			}
		}
	}
	return false
}

// namesRobot reports whether a question on robots names one she does not
// know, capitalized past the first word: "Qui a fabriqué Sophia, le robot
// de Hanson Robotics ?" (the word beside "robot" is "de", and "Hanson" is
// two edits from a word she knows).
func (ix *topicIndex) namesRobot(toks []token, lang nadine.Language) bool {
	for i, t := range toks {
		r, _ := utf8.DecodeRuneInString(t.orig)
		if i > 0 && unicode.IsUpper(r) && utf8.RuneCountInString(t.norm) >= 4 && !herWords[t.norm] &&
			ix.unknownWithin(t.norm, lang, 1) {
			return true
		}
	}
	return false
}

// unknownOnly reports whether a question on an institution, not asked of
// hers, holds a word of three letters or more that she does not know and no
// word that the fact's answer holds besides its kind's head ("Genève",
// "fondé").
func (ix *topicIndex) unknownOnly(toks []token, lang nadine.Language, fact string, heads []string) bool {
	for _, t := range toks {
		if herWords[t.norm] {
			return false // her lab, whatever it is called ("ce laboratoire genevois où l'on vous a mise au point")
		}
	}
	strange := false
	for _, t := range toks {
		w := t.norm
		if i := strings.LastIndexByte(w, '\''); i >= 0 {
			w = w[i+1:]
		}
		if hasHan(w) || functionWords[w] || herWords[w] || utf8.RuneCountInString(w) < 3 || slices.Contains(heads, w) {
			continue
		}
		for _, p := range ix.passages[lang] {
			if p.fact == fact && utf8.RuneCountInString(w) >= 4 && p.has(w) {
				return false
			}
		}
		if factWords()[lang][fact][w] {
			return false // the fact's own questions use it, however short ("NTU, c'est quoi comme école ?")
		}
		// A short word two edits from a known one is not its misspelling
		// ("cnrs", "cours").
		strange = strange || ix.unknownWithin(w, lang, 1+b2i(utf8.RuneCountInString(w) >= 6))
	}
	return strange
}

// factWords are, by language and knowledge fact, the words its examples
// ask with that few labels' examples use, however short: content words
// (four letters or more) leave out an abbreviation that names the fact
// itself ("ntu").
var factWords = sync.OnceValue(func() map[nadine.Language]map[string]map[string]bool {
	out := map[nadine.Language]map[string]map[string]bool{}
	s, err := Examples()
	if err != nil {
		return out // the model's training reports it
	}
	labels := map[nadine.Language]map[string]map[string]bool{} // word → the labels whose examples use it
	for _, ex := range s.Examples {
		if labels[ex.Lang] == nil {
			labels[ex.Lang] = map[string]map[string]bool{}
		}
		for _, t := range analyze(ex.Text).tokens {
			w := unelided(t.norm)
			if labels[ex.Lang][w] == nil {
				labels[ex.Lang][w] = map[string]bool{}
			}
			labels[ex.Lang][w][ex.Label] = true
		}
	}
	for lang, words := range labels {
		out[lang] = map[string]map[string]bool{}
		for w, ls := range words {
			if len(ls) > maxSpread {
				continue
			}
			for l := range ls {
				if fact, ok := strings.CutPrefix(l, "knowledge."); ok {
					if out[lang][fact] == nil {
						out[lang][fact] = map[string]bool{}
					}
					out[lang][fact][w] = true
				}
			}
		}
	}
	return out
})

// unknown reports whether no example and no passage of lang holds w, nor
// nearly holds it (a misspelt "Genva" is Geneva's): a name of something
// she does not know.
func (ix *topicIndex) unknown(w string, lang nadine.Language) bool {
	return ix.unknownWithin(w, lang, 2)
}

// unknownWithin is unknown with nearly holding at most edits away.
func (ix *topicIndex) unknownWithin(w string, lang nadine.Language, edits int) bool {
	if ix.spread[lang][w] > 0 {
		return false
	}
	for _, ps := range [][]topicPassage{ix.passages[lang], ix.asked[lang]} {
		for i := range ps {
			if ps[i].has(w) || hasHan(w) && strings.Contains(ps[i].han, w) {
				return false
			}
			for _, x := range ps[i].words {
				if utf8.RuneCountInString(x) >= 4 && editDistance(w, x) <= edits {
					return false
				}
			}
		}
	}
	return true
}

// linkWords join an institution's kind to its name.
var linkWords = map[string]bool{"of": true, "de": true, "du": true, "des": true, "von": true, "der": true, "in": true, "at": true}

// editDistance is the Levenshtein distance between two words, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}
