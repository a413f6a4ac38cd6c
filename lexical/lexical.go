package lexical

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/nadine-robot/nadine"
)

// DefaultDims is the vector dimension used when New is given zero or less.
const DefaultDims = 512

// Feature group weights and the weight of a function word.
const (
	wordWeight   = 1.0
	bigramWeight = 0.5
	charWeight   = 0.8
	stopWeight   = 0.25
)

// Feature namespaces, hashed before the feature so that a word and a
// character n-gram with the same letters land in different buckets.
const (
	nsWord   = 'w'
	nsBigram = 'b'
	nsChar   = 'c'
)

// Embedder is the lexical embedder. It holds no mutable state and is safe
// for concurrent use.
type Embedder struct {
	dims int
	stop map[string]bool
}

var _ nadine.Embedder = (*Embedder)(nil)

// New returns a lexical embedder producing vectors of dims dimensions
// (DefaultDims when dims <= 0).
func New(dims int) *Embedder {
	if dims <= 0 {
		dims = DefaultDims
	}
	return &Embedder{dims: dims, stop: stopwords()}
}

// Name returns "lexical-v1-<dims>".
func (e *Embedder) Name() string { return "lexical-v1-" + strconv.Itoa(e.dims) }

// Dims returns the vector dimension.
func (e *Embedder) Dims() int { return e.dims }

// Embed returns one L2-normalized vector per text, in order. It fails only
// when ctx is done.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var w worker
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("lexical: embed: %w", err)
			}
		}
		out[i] = e.vector(&w, t)
	}
	return out, nil
}

// Vector embeds one text.
func (e *Embedder) Vector(text string) []float32 {
	var w worker
	return e.vector(&w, text)
}

// feature is one hashed feature occurrence with its weight (the weight is a
// function of the feature alone, so equal hashes have equal weights).
type feature struct {
	h uint64
	w float64
}

// worker holds buffers reused across the texts of one Embed call.
type worker struct {
	tokens []token
	groups [3][]feature
	acc    []float64
	tmp    []float64
	buf    []byte
}

// token is one word of a text.
type token struct {
	s    string
	cjk  bool
	stop bool
}

func (e *Embedder) vector(w *worker, text string) []float32 {
	w.tokens = e.tokenize(w.tokens[:0], text)
	for g := range w.groups {
		w.groups[g] = w.groups[g][:0]
	}
	words, bigrams, chars := &w.groups[0], &w.groups[1], &w.groups[2]
	for i, t := range w.tokens {
		wt := 1.0
		if t.stop {
			wt = stopWeight
		}
		*words = append(*words, feature{hash1(nsWord, t.s), wt})
		if i > 0 {
			p := w.tokens[i-1]
			bw := 1.0
			if p.stop && t.stop {
				bw = stopWeight
			}
			*bigrams = append(*bigrams, feature{hash2(nsBigram, p.s, t.s), bw})
		}
	}
	// Character n-grams: of each word padded with spaces; over whole runs of
	// CJK characters.
	runes := make([]rune, 0, 32)
	for i := 0; i < len(w.tokens); i++ {
		t := w.tokens[i]
		wt := 1.0
		if t.stop {
			wt = stopWeight
		}
		runes = runes[:0]
		if t.cjk {
			j := i
			for j < len(w.tokens) && w.tokens[j].cjk {
				runes = append(runes, []rune(w.tokens[j].s)...)
				j++
			}
			i = j - 1
			*chars = e.ngrams(w, *chars, runes, 2, 3, 1)
			continue
		}
		runes = append(runes, ' ')
		runes = append(runes, []rune(t.s)...)
		runes = append(runes, ' ')
		*chars = e.ngrams(w, *chars, runes, 3, 4, wt)
	}

	if len(w.acc) != e.dims {
		w.acc = make([]float64, e.dims)
		w.tmp = make([]float64, e.dims)
	} else {
		clear(w.acc)
	}
	weights := [3]float64{wordWeight, bigramWeight, charWeight}
	for g, fs := range w.groups {
		if len(fs) == 0 {
			continue
		}
		clear(w.tmp)
		slices.SortFunc(fs, func(a, b feature) int {
			switch {
			case a.h < b.h:
				return -1
			case a.h > b.h:
				return 1
			}
			return 0
		})
		for i := 0; i < len(fs); {
			j := i + 1
			for j < len(fs) && fs[j].h == fs[i].h {
				j++
			}
			tf := float64(j - i)
			v := (1 + math.Log(tf)) * fs[i].w
			h := fs[i].h
			idx := int(h % uint64(e.dims))
			if h>>63 == 1 {
				v = -v
			}
			w.tmp[idx] += v
			i = j
		}
		var n float64
		for _, x := range w.tmp {
			n += x * x
		}
		if n == 0 {
			continue
		}
		s := weights[g] / math.Sqrt(n)
		for i, x := range w.tmp {
			w.acc[i] += s * x
		}
	}
	out := make([]float32, e.dims)
	var n float64
	for _, x := range w.acc {
		n += x * x
	}
	if n == 0 {
		return out
	}
	s := 1 / math.Sqrt(n)
	for i, x := range w.acc {
		out[i] = float32(s * x)
	}
	return out
}

// ngrams appends the hashed character n-grams of r for n in [lo, hi]; a
// sequence shorter than lo contributes itself whole.
func (e *Embedder) ngrams(w *worker, dst []feature, r []rune, lo, hi int, wt float64) []feature {
	if len(r) < lo {
		w.buf = appendRunes(w.buf[:0], r)
		return append(dst, feature{hashBytes(nsChar, w.buf), wt})
	}
	for n := lo; n <= hi; n++ {
		for i := 0; i+n <= len(r); i++ {
			w.buf = appendRunes(w.buf[:0], r[i:i+n])
			dst = append(dst, feature{hashBytes(nsChar, w.buf), wt})
		}
	}
	return dst
}

func appendRunes(b []byte, r []rune) []byte {
	for _, c := range r {
		b = utf8.AppendRune(b, c)
	}
	return b
}

// tokenize folds the text and splits it into words. Letters and digits form
// words; each CJK character is a word of its own.
func (e *Embedder) tokenize(dst []token, text string) []token {
	folded := fold(text)
	start := -1
	flush := func(end int) {
		if start >= 0 {
			s := folded[start:end]
			dst = append(dst, token{s: s, stop: e.stop[s]})
			start = -1
		}
	}
	for i, r := range folded {
		switch {
		case isCJK(r):
			flush(i)
			s := folded[i : i+len(string(r))]
			dst = append(dst, token{s: s, cjk: true, stop: e.stop[s]})
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r):
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(folded))
	return dst
}

// isCJK reports whether r is a Chinese, Japanese or Korean character, which
// are written without spaces between words.
func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// fold lowercases and strips accents; NFKC also turns full-width letters,
// common in Chinese input, into ASCII.
func fold(s string) string {
	d := norm.NFKD.String(s)
	out := make([]byte, 0, len(d))
	for _, r := range d {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		r = unicode.ToLower(r)
		switch r {
		case 'ß':
			out = append(out, "ss"...)
		case 'æ':
			out = append(out, "ae"...)
		case 'œ':
			out = append(out, "oe"...)
		case 'ø':
			out = append(out, 'o')
		case 'đ':
			out = append(out, 'd')
		case 'ł':
			out = append(out, 'l')
		case 'ı':
			out = append(out, 'i')
		default:
			out = utf8.AppendRune(out, r)
		}
	}
	return norm.NFC.String(string(out))
}

// FNV-1a 64 with a final avalanche, so that both the low bits (the bucket)
// and the top bit (the sign) are well mixed.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

func hashBytes(ns byte, b []byte) uint64 {
	h := uint64(fnvOffset)
	h = (h ^ uint64(ns)) * fnvPrime
	for _, c := range b {
		h = (h ^ uint64(c)) * fnvPrime
	}
	return mix(h)
}

func hash1(ns byte, s string) uint64 {
	h := uint64(fnvOffset)
	h = (h ^ uint64(ns)) * fnvPrime
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return mix(h)
}

func hash2(ns byte, a, b string) uint64 {
	h := uint64(fnvOffset)
	h = (h ^ uint64(ns)) * fnvPrime
	for i := 0; i < len(a); i++ {
		h = (h ^ uint64(a[i])) * fnvPrime
	}
	h *= fnvPrime // a zero byte between a and b
	for i := 0; i < len(b); i++ {
		h = (h ^ uint64(b[i])) * fnvPrime
	}
	return mix(h)
}

// Words returns text's words as the embedder sees them: accent- and
// case-folded, each CJK character a word of its own.
func (e *Embedder) Words(text string) []string {
	toks := e.tokenize(nil, text)
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.s
	}
	return out
}
