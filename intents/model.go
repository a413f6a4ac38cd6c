package intents

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/lexical"
)

// Options are the training settings; the zero value of a field takes the
// default's.
type Options struct {
	Epochs   int     // passes over the examples
	Rate     float64 // initial learning rate, divided by 1+epoch
	L2       float64 // weight decay per step
	Variants int     // how many instances of each example are trained (see Set.expand)
	Dropout  float64 // the share of words hidden in every instance but the first
	Weights  Weights
	Seed     uint64 // the order of the examples in each pass
	// ByContent draws each example's variants and its place in each pass
	// from its content, not its index: an example added or removed moves
	// no other's draws (docs/offline.md, "Training that stays put").
	ByContent bool
	// Average is how many snapshots of the last pass's weights the model
	// averages (negative: none, the last weights alone).
	Average int
	// Ensemble is how many fits, each seeing the examples in its own order,
	// the model averages (0 or 1: one).
	Ensemble int
	Lookup   []string // slots whose values are lookup tables (a feature wherever they occur)
	// Neighbours is the share of the probabilities the nearest examples give in
	// the lexical embedder's space (0: none); NeighbourTemp is their temperature.
	Neighbours    float64
	NeighbourTemp float64
}

// DefaultOptions were chosen by cross-validation on the examples (see
// docs/offline.md).
var DefaultOptions = Options{Epochs: 4, Rate: 2, L2: 2e-5, Variants: 2, Dropout: 0.15, Weights: DefaultWeights, Seed: 29,
	Average: 8, NeighbourTemp: 0.03}

func (o Options) withDefaults() Options {
	d := DefaultOptions
	if o.Epochs > 0 {
		d.Epochs = o.Epochs
	}
	if o.Rate > 0 {
		d.Rate = o.Rate
	}
	if o.L2 > 0 {
		d.L2 = o.L2
	}
	if o.Variants > 0 {
		d.Variants = o.Variants
	}
	if o.Dropout > 0 {
		d.Dropout = o.Dropout
	}
	if o.Weights != (Weights{}) {
		d.Weights = o.Weights
	}
	if o.Seed != 0 {
		d.Seed = o.Seed
	}
	if o.Average != 0 {
		d.Average = o.Average
	}
	if o.Ensemble > 0 {
		d.Ensemble = o.Ensemble
	}
	if o.Lookup != nil {
		d.Lookup = o.Lookup
	}
	if o.Neighbours > 0 {
		d.Neighbours = o.Neighbours
	}
	if o.NeighbourTemp > 0 {
		d.NeighbourTemp = o.NeighbourTemp
	}
	d.ByContent = o.ByContent
	return d
}

// Model is a trained classifier: intent and language regressions over the same
// features, and the slots' contexts. It is immutable and safe for concurrent use.
type Model struct {
	labels []string
	langs  []nadine.Language
	feat   featurizer
	index  map[uint64]int32 // feature hash → row
	w      []float32        // rows × len(labels)
	b      []float32
	lw     []float32 // rows × len(langs)
	lb     []float32
	slots  slotContexts
	// words the examples of each language use outside slots: "grâce" in
	// French makes no English "grace" an ordinary word. stems maps every
	// prefix of five letters or more of those words to the length of the
	// shortest word it begins (StemsOf), derived from words.
	words map[nadine.Language]map[string]bool
	stems map[nadine.Language]map[string]int

	// The examples in the lexical embedder's space, for Neighbours.
	neighbours float64
	temp       float64
	emb        *lexical.Embedder
	vecs       [][][]float32 // by label
}

// Scored is a label and its probability.
type Scored struct {
	Label string
	Prob  float64
}

// Result is what the model says about an utterance: every label by
// decreasing probability, and its languages likewise.
type Result struct {
	Labels    []Scored
	Languages []LanguageScore
}

// LanguageScore is a language and its probability.
type LanguageScore struct {
	Language nadine.Language
	Prob     float64
}

// Top returns the most probable label.
func (r Result) Top() Scored {
	if len(r.Labels) == 0 {
		return Scored{}
	}
	return r.Labels[0]
}

// Prob returns the probability of label.
func (r Result) Prob(label string) float64 {
	for _, s := range r.Labels {
		if s.Label == label {
			return s.Prob
		}
	}
	return 0
}

// LanguageProb returns the probability of lang.
func (r Result) LanguageProb(lang nadine.Language) float64 {
	for _, s := range r.Languages {
		if s.Language == lang {
			return s.Prob
		}
	}
	return 0
}

// sample is a training instance as rows and values.
type sample struct {
	rows  []int32
	vals  []float32
	label int
	lang  int
	key   uint64 // the instance's content key: its place in each pass
}

// Train fits a model to the examples of s.
func Train(s *Set, o Options) (*Model, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	if len(s.Examples) == 0 {
		return nil, fmt.Errorf("intents: train: no examples")
	}
	return train(s, allIndexes(len(s.Examples)), o.withDefaults()), nil
}

func allIndexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// train fits a model to the examples of s at the given indexes.
func train(s *Set, use []int, o Options) *Model {
	m := &Model{index: make(map[uint64]int32), words: map[nadine.Language]map[string]bool{}, feat: featurizer{known: map[string]bool{}, weights: o.Weights}}
	var insts []instance
	for _, i := range use {
		insts = append(insts, s.expand(i, o.Variants, o.Dropout, o.ByContent)...)
	}
	for _, in := range insts {
		if !slices.Contains(m.labels, in.label) {
			m.labels = append(m.labels, in.label)
		}
		if !slices.Contains(m.langs, in.lang) {
			m.langs = append(m.langs, in.lang)
		}
		if m.words[in.lang] == nil {
			m.words[in.lang] = map[string]bool{}
		}
		for _, t := range in.toks {
			if !t.Slot && !t.Hidden {
				m.feat.known[t.Norm] = true
				m.words[in.lang][t.Norm] = true
			}
		}
	}
	slices.Sort(m.labels)
	slices.Sort(m.langs)
	m.stems = make(map[nadine.Language]map[string]int, len(m.words))
	for lang, ws := range m.words {
		m.stems[lang] = StemsOf(ws)
	}
	m.slots = learnContexts(s, use)
	for _, slot := range o.Lookup {
		for _, lang := range nadine.Languages() {
			m.feat.addLookup(slot, s.Values[lang][slot])
		}
	}

	samples := make([]sample, len(insts))
	for i, in := range insts {
		fs := m.feat.features(in.toks)
		sm := sample{label: slices.Index(m.labels, in.label), lang: slices.Index(m.langs, in.lang), key: in.key}
		for _, f := range fs {
			row, ok := m.index[f.h]
			if !ok {
				row = int32(len(m.index))
				m.index[f.h] = row
			}
			sm.rows = append(sm.rows, row)
			sm.vals = append(sm.vals, f.v)
		}
		samples[i] = sm
	}
	rows := len(m.index)
	k, kl := len(m.labels), len(m.langs)
	m.w, m.b = make([]float32, rows*k), make([]float32, k)
	m.lw, m.lb = make([]float32, rows*kl), make([]float32, kl)
	fitEnsemble(samples, m.w, m.b, k, o, func(s *sample) int { return s.label })
	if o.Neighbours > 0 {
		m.neighbours, m.temp, m.emb = o.Neighbours, o.NeighbourTemp, lexical.New(neighbourDims)
		m.vecs = make([][][]float32, k)
		for _, in := range insts {
			if in.variant > 0 {
				continue // a dropout copy is the same sentence
			}
			l := slices.Index(m.labels, in.label)
			m.vecs[l] = append(m.vecs[l], m.emb.Vector(in.text))
		}
	}
	fitSoftmax(samples, m.lw, m.lb, kl, o, func(s *sample) int { return s.lang })
	return m
}

// fitEnsemble averages o.Ensemble fits whose passes see the examples in
// different orders, so that one example more does not reorder what is learnt.
func fitEnsemble(samples []sample, w, b []float32, k int, o Options, class func(*sample) int) {
	n := max(o.Ensemble, 1)
	if n == 1 {
		fitSoftmax(samples, w, b, k, o, class)
		return
	}
	tw, tb := make([]float32, len(w)), make([]float32, len(b))
	for e := range n {
		clear(tw)
		clear(tb)
		oe := o
		oe.Seed = o.Seed + uint64(e)*0x9e3779b97f4a7c15
		fitSoftmax(samples, tw, tb, k, oe, class)
		for i, x := range tw {
			w[i] += x / float32(n)
		}
		for i, x := range tb {
			b[i] += x / float32(n)
		}
	}
}

// easy is the probability from which a sample sits out the next pass; it sits
// out at most every other pass, so decay cannot undo it unseen.
const easy = 0.98

// fitSoftmax trains by SGD, weight decay kept as a scale of w so a step touches
// only its sample's rows; on its own slices in one goroutine, so go:norace is safe.
//
//go:norace
//go:nocheckptr
func fitSoftmax(samples []sample, w, b []float32, k int, o Options, class func(*sample) int) {
	rng := rand.New(rand.NewPCG(o.Seed, uint64(k)))
	order := allIndexes(len(samples))
	place := make([]uint64, len(samples))
	scores := make([]float32, k)
	skip := make([]bool, len(samples))
	type step struct {
		c int
		d float32
	}
	steps := make([]step, 0, k)
	scale := 1.0
	// The last pass's weights are averaged over snapshots: at its learning
	// rate the weights after its last few samples would decide, and one
	// example more or less would move unrelated utterances.
	var sumW, sumB []float32
	snaps := 0
	snapshot := func() {
		if sumW == nil {
			sumW, sumB = make([]float32, len(w)), make([]float32, len(b))
		}
		for i, x := range w {
			sumW[i] += x * float32(scale)
		}
		for i, x := range b {
			sumB[i] += x
		}
		snaps++
	}
	for epoch := range o.Epochs {
		rate := o.Rate / float64(1+epoch)
		if o.ByContent {
			// The pass's order sorts the samples by a hash of their own
			// content and the pass: an example more or less takes its place
			// among the others without reordering them.
			for i := range samples {
				place[i] = mix64(samples[i].key ^ mix64(o.Seed^uint64(k)<<32^uint64(epoch+1)))
			}
			slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(place[a], place[b]) })
		} else {
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		every := 0
		if epoch == o.Epochs-1 && o.Average > 0 {
			every = max(1, len(order)/o.Average)
		}
		for n, i := range order {
			if every > 0 && n > 0 && n%every == 0 {
				snapshot()
			}
			if skip[i] {
				skip[i] = false
				continue
			}
			s := &samples[i]
			score(s.rows, s.vals, w, b, k, float32(scale), scores)
			softmax(scores)
			scale *= 1 - rate*o.L2
			y := class(s)
			skip[i] = scores[y] >= easy
			steps = steps[:0]
			for c := range k {
				g := scores[c]
				if c == y {
					g--
				}
				if g > -1e-3 && g < 1e-3 {
					continue // a class the sample barely moves
				}
				b[c] -= float32(rate) * g
				steps = append(steps, step{c, float32(rate/scale) * g})
			}
			for j, r := range s.rows {
				row := w[int(r)*k : int(r)*k+k]
				v := s.vals[j]
				for _, st := range steps {
					row[st.c] -= st.d * v
				}
			}
			if scale < 1e-3 {
				for i := range w {
					w[i] *= float32(scale)
				}
				scale = 1
			}
		}
	}
	for i := range w {
		w[i] *= float32(scale)
	}
	scale = 1
	if snaps > 0 {
		snapshot() // the final weights, already scaled (scale is 1 now)
		for i := range w {
			w[i] = sumW[i] / float32(snaps)
		}
		for i := range b {
			b[i] = sumB[i] / float32(snaps)
		}
	}
}

// mix64 is splitmix64's finalizer: a well-spread 64-bit hash of x.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// score computes the raw scores of k classes from weights nobody writes once
// trained, or its caller's own (go:norace, go:nocheckptr).
//
//go:norace
//go:nocheckptr
func score(rows []int32, vals []float32, w, b []float32, k int, scale float32, out []float32) {
	clear(out)
	for j, r := range rows {
		row := w[int(r)*k : int(r)*k+k]
		v := vals[j]
		for c, x := range row {
			out[c] += x * v
		}
	}
	for c := range out {
		out[c] = out[c]*scale + b[c]
	}
}

// softmax turns scores into probabilities in place.
func softmax(s []float32) {
	maxv := float32(math.Inf(-1))
	for _, x := range s {
		maxv = max(maxv, x)
	}
	var sum float64
	for i, x := range s {
		e := math.Exp(float64(x - maxv))
		s[i] = float32(e)
		sum += e
	}
	for i := range s {
		s[i] = float32(float64(s[i]) / sum)
	}
}

// Classify scores an utterance, with the nearest examples when the model
// was trained with Neighbours.
func (m *Model) Classify(text string) Result { return m.classify(Tokenize(text), true) }

// ClassifyTokens scores the tokens of an utterance, with the nearest
// examples (Neighbours).
func (m *Model) ClassifyTokens(toks []Token) Result { return m.classify(toks, true) }

// ClassifyPart scores the tokens of a part of an utterance ("Hello" in
// "Hello, who are you?") by the linear model alone, which is cheaper.
func (m *Model) ClassifyPart(toks []Token) Result { return m.classify(toks, false) }

func (m *Model) classify(toks []Token, near bool) Result {
	var rows []int32
	var vals []float32
	for _, f := range m.feat.features(toks) {
		if r, ok := m.index[f.h]; ok {
			rows = append(rows, r)
			vals = append(vals, f.v)
		}
	}
	var res Result
	s := make([]float32, len(m.labels))
	score(rows, vals, m.w, m.b, len(m.labels), 1, s)
	softmax(s)
	if near && m.neighbours > 0 {
		m.mixNeighbours(toks, s)
	}
	for i, l := range m.labels {
		res.Labels = append(res.Labels, Scored{Label: l, Prob: float64(s[i])})
	}
	slices.SortStableFunc(res.Labels, func(a, b Scored) int { return cmpProb(a.Prob, b.Prob) })
	ls := make([]float32, len(m.langs))
	score(rows, vals, m.lw, m.lb, len(m.langs), 1, ls)
	softmax(ls)
	for i, l := range m.langs {
		res.Languages = append(res.Languages, LanguageScore{Language: l, Prob: float64(ls[i])})
	}
	slices.SortStableFunc(res.Languages, func(a, b LanguageScore) int { return cmpProb(a.Prob, b.Prob) })
	return res
}

// neighbourDims is the dimension of the lexical vectors of the examples.
const neighbourDims = 128

// neighbourLabels is how many of the linear model's most probable labels
// the nearest examples weigh again: the others keep their probability.
const neighbourLabels = 8

// mixNeighbours mixes into p each top label's best cosine similarity to the
// utterance among its examples, through a softmax at m.temp.
func (m *Model) mixNeighbours(toks []Token, p []float32) {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		if t.Han {
			b.WriteString(t.Norm) // the examples' 简体
		} else {
			b.WriteString(t.Text)
		}
	}
	v := m.emb.Vector(b.String())
	top := make([]int, len(p))
	for i := range top {
		top[i] = i
	}
	slices.SortStableFunc(top, func(a, b int) int { return cmpProb(float64(p[a]), float64(p[b])) })
	top = top[:min(neighbourLabels, len(top))]
	var mass float32
	best := make([]float32, len(top))
	for i, l := range top {
		mass += p[l]
		best[i] = -1
		for _, x := range m.vecs[l] {
			var dot float32
			for j, a := range x {
				dot += a * v[j]
			}
			best[i] = max(best[i], dot)
		}
		best[i] /= float32(m.temp)
	}
	softmax(best)
	for i, l := range top {
		p[l] = float32(1-m.neighbours)*p[l] + float32(m.neighbours)*mass*best[i]
	}
}

// cmpProb orders by decreasing probability.
func cmpProb(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// Labels returns the model's labels, sorted.
func (m *Model) Labels() []string { return slices.Clone(m.labels) }

// Known reports whether a folded word occurs in the examples of lang outside a
// slot: a word the examples use is not a name.
func (m *Model) Known(lang nadine.Language, norm string) bool { return m.words[lang][norm] }

// KnownStem reports whether a folded word or another form of it is in the
// examples of lang (FormOf).
func (m *Model) KnownStem(lang nadine.Language, norm string) bool {
	return m.words[lang][norm] || FormOf(m.stems[lang], norm)
}

// FormOf reports whether norm is another form of a word of stems
// (StemsOf): all but its two last letters, and five or more, begin a word
// at most InflectionLetters longer ("lehrerin" for "lehrer"). A word that
// only begins a much longer one is not a form of it: "Franz" is a name,
// not "französisch".
func FormOf(stems map[string]int, norm string) bool {
	r := []rune(norm)
	n := max(5, len(r)-2)
	if n > len(r) {
		return false
	}
	shortest, ok := stems[string(r[:n])]
	return ok && shortest <= len(r)+InflectionLetters
}

// InflectionLetters is how much longer than a word another form of it may
// be: an ending ("-en", "-est", "-ions"), not a word's whole second half.
const InflectionLetters = 3

// StemsOf maps every prefix of five letters or more of words to the length,
// in letters, of the shortest word it begins.
func StemsOf(words map[string]bool) map[string]int {
	out := map[string]int{}
	for w := range words {
		r := []rune(w)
		for n := 5; n <= len(r); n++ {
			p := string(r[:n])
			if l, ok := out[p]; !ok || len(r) < l {
				out[p] = len(r)
			}
		}
	}
	return out
}

// Tags returns, for each token, "<slot>" when it is part of a value of a
// lookup slot ("<lang>" for "Spanish"), else "".
func (m *Model) Tags(toks []Token) []string { return m.feat.tag(toks) }

// Size returns the number of features the model has weights for.
func (m *Model) Size() int { return len(m.index) }
