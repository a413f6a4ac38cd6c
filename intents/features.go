package intents

import (
	"math"
	"slices"
	"unicode/utf8"
)

// Feature namespaces, hashed in front of a feature so that a word and a
// character n-gram with the same letters are different features.
const (
	nsWord    = 'w' // a word, "<unk>" for a word no example has, "<num>" for a number
	nsNegated = 'n' // a word in the scope of a negation ("not happy"), instead of nsWord
	nsBigram  = 'b' // two consecutive words, "^" and "$" marking the ends
	nsChar    = 'c' // a character 3-, 4- or 5-gram of a Latin word padded with spaces
	nsNegChar = 'C' // the same in the scope of a negation
	nsHan     = 't' // three consecutive Chinese characters
	nsNegHan  = 'T' // the same in the scope of a negation
)

// Words standing for what the examples cannot list.
const (
	unknownWord = "<unk>" // a word no example has outside a slot: a name, a place, a topic
	numberWord  = "<num>"
)

// negations open the scope of a negation over the next words of the clause
// (folded spelling): "not happy", "pas triste", "nicht gut", "不开心".
var negations = map[string]bool{
	"not": true, "no": true, "never": true, "dont": true, "doesnt": true, "didnt": true, "isnt": true,
	"arent": true, "wasnt": true, "cant": true, "cannot": true, "wont": true, "nt": true,
	"pas": true, "ne": true, "jamais": true,
	"nicht": true, "kein": true, "keine": true, "keinen": true, "keiner": true, "nie": true, "niemals": true,
	"不": true, "没": true, "别": true, "未": true,
}

// negates reports whether toks[i] opens a negation. A Chinese 不 or 没
// between a character and itself asks instead ("是不是", "有没有", "记不记得":
// "你是不是机器人" is no "not a robot"). French "ne" negates with its
// partner in the clause ("ne … pas", "rien ne"): alone it is "ne … que"
// (only) or German speech's "ne" for "eine" ("du bist ne gute Zuhörerin"
// was abuse, "gute" negated).
func negates(toks []Token, i int) bool {
	t := toks[i]
	if !negations[t.Norm] || t.Norm == "ne" && !negationPartnered(toks, i) {
		return false
	}
	return !(t.Han && i > 0 && i+1 < len(toks) && toks[i-1].Han && toks[i+1].Han &&
		toks[i-1].Clause == t.Clause && toks[i+1].Clause == t.Clause && toks[i-1].Norm == toks[i+1].Norm)
}

// nePartners complete French "ne" into a negation (folded spelling).
var nePartners = map[string]bool{"pas": true, "jamais": true, "plus": true, "rien": true, "personne": true,
	"guere": true, "point": true, "aucun": true, "aucune": true, "ni": true, "nulle": true}

// negationPartnered reports whether the clause of toks[i] holds a partner
// of "ne", before it or after.
func negationPartnered(toks []Token, i int) bool {
	for j, t := range toks {
		if j != i && t.Clause == toks[i].Clause && nePartners[t.Norm] {
			return true
		}
	}
	return false
}

// negationScope is how many words (Chinese: characters) after a negation it
// applies to.
const negationScope = 3

// negatedBefore marks the words a negation that ends its clause applies to:
// the negationScope words before it ("vergiss mich bitte nicht", "t'inquiète
// pas"), where German and spoken French put it after the verb.
func negatedBefore(toks []Token) []bool {
	out := make([]bool, len(toks))
	for i, t := range toks {
		if !negates(toks, i) || i+1 < len(toks) && toks[i+1].Clause == t.Clause {
			continue
		}
		for j := i - 1; j >= 0 && j >= i-negationScope && toks[j].Clause == t.Clause; j-- {
			out[j] = true
		}
	}
	return out
}

// Weights of the feature groups: each group's vector is scaled to this length,
// so an utterance's many character n-grams count about as much as its few words.
type Weights struct {
	Words, Bigrams, Chars float64
	MaxGram               int // the longest character n-gram (3 to 5)
}

// DefaultWeights were chosen by cross-validation on the examples (see
// docs/offline.md).
var DefaultWeights = Weights{Words: 1, Bigrams: 0.8, Chars: 1, MaxGram: 4}

// feature is a hashed feature and its value.
type feature struct {
	h uint64
	v float32
}

// featurizer turns tokens into features: a word outside known (the examples'
// vocabulary) is "<unk>", a lookup slot's value "<slot>" wherever it occurs.
type featurizer struct {
	known   map[string]bool
	lookup  map[string][]lookupValue // by first folded word
	weights Weights
}

// lookupValue is a value of a lookup slot, as folded words.
type lookupValue struct {
	words []string
	slot  string
}

// addLookup adds the values of a slot to the lookup table.
func (f *featurizer) addLookup(slot string, values []string) {
	if f.lookup == nil {
		f.lookup = make(map[string][]lookupValue)
	}
	for _, v := range values {
		var ws []string
		for _, t := range Tokenize(v) {
			ws = append(ws, t.Norm)
		}
		if len(ws) > 0 {
			f.lookup[ws[0]] = append(f.lookup[ws[0]], lookupValue{words: ws, slot: slot})
		}
	}
}

// tag marks a lookup slot's values with "<slot>", the longest winning; a
// training token filling a lookup slot is one by construction.
func (f *featurizer) tag(toks []Token) []string {
	tags := make([]string, len(toks))
	for i := 0; i < len(toks); {
		best, slot := 0, ""
		for _, v := range f.lookup[toks[i].Norm] {
			if len(v.words) > best && i+len(v.words) <= len(toks) && matchWords(toks[i:i+len(v.words)], v.words) {
				best, slot = len(v.words), v.slot
			}
		}
		if best == 0 {
			i++
			continue
		}
		for j := i; j < i+best; j++ {
			tags[j] = "<" + slot + ">"
		}
		i += best
	}
	for i, t := range toks {
		if t.SlotName != "" && f.isLookup(t.SlotName) {
			tags[i] = "<" + t.SlotName + ">"
		}
	}
	return tags
}

func (f *featurizer) isLookup(slot string) bool {
	for _, vs := range f.lookup {
		for _, v := range vs {
			if v.slot == slot {
				return true
			}
		}
	}
	return false
}

func matchWords(toks []Token, ws []string) bool {
	for j, w := range ws {
		if toks[j].Norm != w {
			return false
		}
	}
	return true
}

// wordOf is the word feature a token stands for.
func (f *featurizer) wordOf(t Token, tag string) string {
	if tag != "" {
		return tag
	}
	if t.Slot || t.Hidden {
		return unknownWord
	}
	if isNumber(t.Norm) {
		return numberWord
	}
	if f.known != nil && !f.known[t.Norm] {
		if head := f.head(t.Norm); head != "" {
			return head
		}
		return unknownWord
	}
	return t.Norm
}

// hanOf is a Chinese character as its trigrams read it: a lookup value's
// characters are its slot.
func hanOf(t Token, tag string) string {
	if tag != "" {
		return tag
	}
	return t.Norm
}

// Bounds of a compound's head word: a known word that ends an unknown one.
const (
	minHead     = 5 // runes of the head: "Bérénice" does not end with "nice"
	minModifier = 3 // runes before it ("vorsingen" → "singen")
)

// head is the longest known word that ends the unknown word w, or "": a
// compound or a prefixed verb ("Ingenieursarbeit", "vorsingen") means
// about what its last part means, as German builds them.
func (f *featurizer) head(w string) string {
	if isNumber(w) {
		return ""
	}
	n := 0
	for i := range w {
		if n >= minModifier && utf8.RuneCountInString(w[i:]) >= minHead && f.known[w[i:]] {
			return w[i:]
		}
		n++
	}
	return ""
}

func isNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// features returns the features of toks, each group L2-normalized and
// weighted, sorted by hash with duplicates merged.
func (f *featurizer) features(toks []Token) []feature {
	var words, bigrams, chars []feature
	prev := "^"
	negLeft, negClause := 0, -1
	tags := f.tag(toks)
	back := negatedBefore(toks)
	for i, t := range toks {
		w := f.wordOf(t, tags[i])
		// A word in the scope of a negation is another feature than the
		// word ("not stupid" is no insult), its letters too.
		neg := (negLeft > 0 && t.Clause == negClause || back[i]) && !negates(toks, i)
		if neg {
			negLeft--
			words = append(words, feature{hash(nsNegated, w, ""), 1})
		} else {
			words = append(words, feature{hash(nsWord, w, ""), 1})
		}
		if negates(toks, i) {
			negLeft, negClause = negationScope, t.Clause
		}
		if i > 0 && toks[i-1].Clause != t.Clause {
			bigrams = append(bigrams, feature{hash(nsBigram, prev, "$"), 1})
			prev = "^"
		}
		bigrams = append(bigrams, feature{hash(nsBigram, prev, w), 1})
		prev = w
		if t.Han {
			if i >= 2 && toks[i-1].Han && toks[i-2].Han && toks[i-2].Clause == t.Clause {
				ns := byte(nsHan)
				if neg {
					ns = nsNegHan
				}
				chars = append(chars, feature{hash(ns, hanOf(toks[i-2], tags[i-2])+hanOf(toks[i-1], tags[i-1]), hanOf(t, tags[i])), 1})
			}
			continue
		}
		if tags[i] != "" {
			// A lookup value is its slot, letters and all: which relative
			// or language it is says nothing of the intent.
			continue
		}
		ns := byte(nsChar)
		if neg {
			ns = nsNegChar
		}
		chars = appendCharGrams(chars, ns, t.Norm, f.weights.MaxGram)
	}
	if len(toks) > 0 {
		bigrams = append(bigrams, feature{hash(nsBigram, prev, "$"), 1})
	}
	out := make([]feature, 0, len(words)+len(bigrams)+len(chars))
	out = appendGroup(out, words, f.weights.Words)
	out = appendGroup(out, bigrams, f.weights.Bigrams)
	out = appendGroup(out, chars, f.weights.Chars)
	return merge(out)
}

// appendCharGrams adds the 3- to maxGram-grams of " word ".
func appendCharGrams(dst []feature, ns byte, w string, maxGram int) []feature {
	var buf [64]rune
	r := buf[:0]
	r = append(r, ' ')
	for _, c := range w {
		r = append(r, c)
	}
	r = append(r, ' ')
	var b []byte
	for n := 3; n <= max(3, maxGram); n++ {
		for i := 0; i+n <= len(r); i++ {
			b = b[:0]
			for _, c := range r[i : i+n] {
				b = utf8.AppendRune(b, c)
			}
			dst = append(dst, feature{hash(ns, string(b), ""), 1})
		}
	}
	return dst
}

// appendGroup merges a group's duplicates, scales it to length weight and
// appends it.
func appendGroup(dst, group []feature, weight float64) []feature {
	group = merge(group)
	var n float64
	for _, f := range group {
		n += float64(f.v) * float64(f.v)
	}
	if n == 0 || weight == 0 {
		return dst
	}
	s := float32(weight / math.Sqrt(n))
	for _, f := range group {
		dst = append(dst, feature{f.h, f.v * s})
	}
	return dst
}

// merge sorts features by hash and adds up the values of equal hashes.
func merge(fs []feature) []feature {
	slices.SortFunc(fs, func(a, b feature) int {
		switch {
		case a.h < b.h:
			return -1
		case a.h > b.h:
			return 1
		}
		return 0
	})
	out := fs[:0]
	for _, f := range fs {
		if n := len(out); n > 0 && out[n-1].h == f.h {
			out[n-1].v += f.v
			continue
		}
		out = append(out, f)
	}
	return out
}

// FNV-1a over the namespace and the parts, with a final avalanche.
func hash(ns byte, a, b string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	h = (h ^ uint64(ns)) * prime
	for i := 0; i < len(a); i++ {
		h = (h ^ uint64(a[i])) * prime
	}
	h = (h ^ 0xff) * prime
	for i := 0; i < len(b); i++ {
		h = (h ^ uint64(b[i])) * prime
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}
