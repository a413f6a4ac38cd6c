package postgres

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// cosine returns the cosine similarity of a and b (of one length), 0 when
// either is a zero vector. It sums in float64, so that the score does not
// depend on which server or mode found the vector.
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

var binaryBE = binary.BigEndian

// decodeFloat4Array decodes PostgreSQL's binary format of a one-dimension
// real[] without NULL elements (what the store writes) into dst.
func decodeFloat4Array(b []byte, dst []float32) ([]float32, error) {
	if len(b) < 12 {
		return nil, fmt.Errorf("array of %d bytes", len(b))
	}
	ndim, elem := binaryBE.Uint32(b[0:]), binaryBE.Uint32(b[8:])
	if ndim == 0 {
		return dst, nil
	}
	const float4OID = 700
	if ndim != 1 || elem != float4OID || len(b) < 20 {
		return nil, fmt.Errorf("not a one-dimension real[] (%d dimensions, element type %d)", ndim, elem)
	}
	n := int(binaryBE.Uint32(b[12:]))
	b = b[20:]
	if len(b) != 8*n {
		return nil, fmt.Errorf("real[%d] in %d bytes", n, len(b))
	}
	for i := 0; i < n; i++ {
		if binaryBE.Uint32(b) != 4 {
			return nil, fmt.Errorf("element %d is NULL or not 4 bytes", i)
		}
		dst = append(dst, math.Float32frombits(binaryBE.Uint32(b[4:])))
		b = b[8:]
	}
	return dst, nil
}
