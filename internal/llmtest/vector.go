package llmtest

import (
	"hash/fnv"
	"math"
	"strings"
	"unicode"
)

// Vector is the server's deterministic embedding: words hashed, so texts that
// share words have a positive cosine similarity.
func Vector(text string, dims int) []float32 {
	if dims <= 0 {
		dims = DefaultDimensions
	}
	v := make([]float64, dims)
	add := func(tok string) {
		h := fnv.New64a()
		h.Write([]byte(tok))
		x := h.Sum64()
		for k := 0; k < 2; k++ {
			idx := int((x >> (32 * k) & 0x7fffffff) % uint64(dims))
			sign := 1.0
			if x>>(16+32*k)&1 == 1 {
				sign = -1
			}
			v[idx] += sign
		}
	}
	n := 0
	for _, w := range words(strings.ToLower(text)) {
		add(w)
		n++
	}
	if n == 0 {
		add("\x00" + text)
	}
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	norm = math.Sqrt(norm)
	if norm == 0 {
		// Two components cancelled out: fall back to one fixed component.
		v[0], norm = 1, 1
	}
	out := make([]float32, dims)
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out
}

// words splits text into runs of letters and digits; Han characters are
// words on their own.
func words(text string) []string {
	var out []string
	start := -1
	for i, r := range text {
		switch {
		case unicode.Is(unicode.Han, r):
			if start >= 0 {
				out = append(out, text[start:i])
				start = -1
			}
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if start < 0 {
				start = i
			}
		default:
			if start >= 0 {
				out = append(out, text[start:i])
				start = -1
			}
		}
	}
	if start >= 0 {
		out = append(out, text[start:])
	}
	return out
}
