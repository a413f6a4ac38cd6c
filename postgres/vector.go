package postgres

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nadine-robot/nadine/internal/records"
)

// cosine sums in float64 so a score does not depend on which server or mode
// found the vector.
func cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i, x := range a {
		y := float64(b[i])
		ab += float64(x) * y
		aa += float64(x) * float64(x)
		bb += y * y
	}
	if aa == 0 || bb == 0 {
		return 0
	}
	return ab / (math.Sqrt(aa) * math.Sqrt(bb))
}

// scored is an id with its similarity to a query.
type scored struct {
	id    int64
	score float64
}

// better orders results by score, then by id.
func better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.id < b.id
}

// topK keeps the k best of the candidates offered to it.
type topK struct {
	k    int
	best []scored // best first
}

// offer adds c when fewer than k are kept or c beats the worst kept.
func (t *topK) offer(c scored) {
	n := len(t.best)
	if n == t.k && (n == 0 || !better(c, t.best[n-1])) {
		return
	}
	i, _ := slices.BinarySearchFunc(t.best, c, func(e, c scored) int {
		if better(e, c) {
			return -1
		}
		return 1
	})
	if n < t.k {
		t.best = append(t.best, scored{})
	}
	copy(t.best[i+1:], t.best[i:])
	t.best[i] = c
}

// scoreTop rescores with the store's own cosine: the server chose the items,
// but the scores do not depend on it.
func scoreTop[T, S any](q []float32, items []T, k int, id func(T) int64, vec func(T) []float32, wrap func(T, float64) S) []S {
	t := topK{k: k}
	byID := make(map[int64]T, len(items))
	for _, it := range items {
		byID[id(it)] = it
		t.offer(scored{id(it), cosine(q, vec(it))})
	}
	if len(t.best) == 0 {
		return nil
	}
	out := make([]S, len(t.best))
	for i, b := range t.best {
		out[i] = wrap(byID[b.id], b.score)
	}
	return out
}

// vecCol scans an embedding column: bytea (stock) or pgvector's text form
// "[1,2,3]" (selected as embedding::text). NULL is no vector.
type vecCol []float32

// Scan implements sql.Scanner.
func (v *vecCol) Scan(src any) error {
	var err error
	switch x := src.(type) {
	case nil:
		*v = nil
	case []byte:
		*v, err = records.DecodeVector(x, nil)
	case string:
		*v, err = parseVectorText(x)
	default:
		err = fmt.Errorf("cannot scan %T as a vector", src)
	}
	if len(*v) == 0 {
		*v = nil
	}
	return err
}

// parseVectorText parses pgvector's text form of a vector, "[1,2.5,-3e-05]".
func parseVectorText(s string) ([]float32, error) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, fmt.Errorf("vector text %.20q is not [x,y,...]", s)
	}
	s = s[1 : len(s)-1]
	if s == "" {
		return nil, nil
	}
	out := make([]float32, 0, strings.Count(s, ",")+1)
	for part := range strings.SplitSeq(s, ",") {
		f, err := strconv.ParseFloat(strings.TrimSpace(part), 32)
		if err != nil {
			return nil, fmt.Errorf("vector text: %w", err)
		}
		out = append(out, float32(f))
	}
	return out, nil
}
