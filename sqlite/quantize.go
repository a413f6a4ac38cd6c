package sqlite

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/nadine-robot/nadine/internal/records"
)

// A large user's vectors are kept in memory quantized: each vector as int8
// steps of its own scale (a quarter of the bytes), with what bounds the
// error this makes on a cosine. A search scores the quantized vectors with
// an integer dot product, keeps every vector whose score could still be
// among the k best once the error is accounted for, and computes the exact
// score of those candidates only, from the vectors stored in SQLite. The
// result is the exact search's, entry for entry (see boundedSearch): the
// seed's per-user search stays exact, and a person with 100,000 memories
// costs 26 MB of memory and a few milliseconds instead of 100 MB and tens.
//
// The bound. With v̂ = s·q8 the quantized vector (s its float32 scale) and
// q̂ = t·q16 the query's, |q·v − q̂·v̂| ≤ |q|·|v − v̂| + |q − q̂|·|v̂|
// (Cauchy–Schwarz, twice). Divided by |q|·|v|, the cosine's error is at
// most resid + ρ·ratio, where resid = |v − v̂|/|v| and ratio = |v̂|/|v| are
// kept per vector and ρ = |q − q̂|/|q| is the query's. The exact path's own
// float32 rounding (a dot product of d terms, and the norms) adds at most
// about 2·d·2⁻²⁴ to that, which the bound includes, so that the candidates
// are chosen against the very scores the exact path computes.

// unitRoundoff is float32's unit roundoff, 2⁻²⁴.
const unitRoundoff = 1.0 / (1 << 24)

// Norms outside [minNorm, maxNorm] leave float32's normal range when squared,
// where rounding is unbounded: such vectors are scored exactly.
const (
	minNorm = 1e-18
	maxNorm = 1e18
)

// finiteNorm says whether v may be quantized (see minNorm).
func finiteNorm(v []float32) bool {
	var nn float64
	for _, x := range v {
		nn += float64(x) * float64(x)
	}
	n := math.Sqrt(nn)
	return n >= minNorm && n <= maxNorm
}

// quantizeVector returns a zero scale for a vector the bound does not cover
// (see finiteNorm): a zero vector, or one to be scored exactly.
func quantizeVector(dst []int8, v []float32) ([]int8, float32, float32, float32) {
	var m float32
	for _, x := range v {
		m = max(m, float32(math.Abs(float64(x))))
	}
	if !finiteNorm(v) {
		for range v {
			dst = append(dst, 0)
		}
		return dst, 0, 0, 0
	}
	s := m / 127
	var nn, rr, hh float64
	for _, x := range v {
		c := math.Round(float64(x) / float64(s))
		c = max(-127, min(127, c))
		dst = append(dst, int8(c))
		h := float64(s) * c // exact: an integer below 2⁸ times a float32
		d := float64(x) - h
		nn += float64(x) * float64(x)
		rr += d * d
		hh += h * h
	}
	n := math.Sqrt(nn)
	return dst, s, roundUp(math.Sqrt(rr) / n), roundUp(math.Sqrt(hh) / n)
}

// encodeCodes returns the stored form of the quantized vectors of a block
// (memory_codes), as appendCode gives each of them.
func encodeCodes(vecs []byte, dims int) (bounds, codes []byte, err error) {
	if dims <= 0 || len(vecs)%(4*dims) != 0 {
		return nil, nil, fmt.Errorf("%d bytes are no whole number of vectors of %d float32 values", len(vecs), dims)
	}
	n := len(vecs) / (4 * dims)
	bounds, codes = make([]byte, 0, 12*n), make([]byte, 0, n*dims)
	for i := range n {
		bounds, codes = appendCode(bounds, codes, vecs[4*dims*i:4*dims*(i+1)])
	}
	return bounds, codes, nil
}

// appendCode appends a vector's bounds (scale, residual, ratio as float32 LE)
// and int8 steps; the caller checked the vector's length.
func appendCode(bounds, codes, vec []byte) ([]byte, []byte) {
	v, _ := records.DecodeVector(vec, nil)
	q8, scale, resid, ratio := quantizeVector(make([]int8, 0, len(v)), v)
	bounds = binary.LittleEndian.AppendUint32(bounds, math.Float32bits(scale))
	bounds = binary.LittleEndian.AppendUint32(bounds, math.Float32bits(resid))
	bounds = binary.LittleEndian.AppendUint32(bounds, math.Float32bits(ratio))
	return bounds, append(codes, int8Bytes(q8)...)
}

// int8Bytes returns the memory of v as bytes.
func int8Bytes(v []int8) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
}

// roundUp rounds to float32 upward, so a stored bound never shrinks.
func roundUp(x float64) float32 {
	f := float32(x)
	if float64(f) < x {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

// queryCode is a query quantized to integers for scanning quantized blocks.
type queryCode struct {
	q16 []int16
	t   float64 // the step: q̂ = t·q16
	rho float64 // |q − q̂| / |q|
}

// quantizeQuery returns q quantized with steps small enough that the int32
// sums of dotCode cannot overflow for its dimension.
func quantizeQuery(q []float32) queryCode {
	var m float64
	for _, x := range q {
		m = max(m, math.Abs(float64(x)))
	}
	c := queryCode{q16: make([]int16, len(q))}
	if !finiteNorm(q) {
		return c // t = 0: every score is computed exactly
	}
	// Each of dotCode's four sums adds at most len(q)/4 + 7 products of
	// at most top·127.
	top := math.Min(32767, math.Floor(float64(math.MaxInt32)/(float64(len(q)/4+8)*127)))
	c.t = m / top
	var nn, rr float64
	for i, x := range q {
		k := max(-top, min(top, math.Round(float64(x)/c.t)))
		c.q16[i] = int16(k)
		d := float64(x) - c.t*k
		nn += float64(x) * float64(x)
		rr += d * d
	}
	c.rho = math.Sqrt(rr) / math.Sqrt(nn)
	return c
}

// dotCode needs no overflow check: quantizeQuery's steps keep every partial
// sum within int32.
func dotCode(a []int16, b []int8) int64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	for len(a) >= 8 && len(b) >= 8 {
		s0 += int32(a[0])*int32(b[0]) + int32(a[4])*int32(b[4])
		s1 += int32(a[1])*int32(b[1]) + int32(a[5])*int32(b[5])
		s2 += int32(a[2])*int32(b[2]) + int32(a[6])*int32(b[6])
		s3 += int32(a[3])*int32(b[3]) + int32(a[7])*int32(b[7])
		a, b = a[8:], b[8:]
	}
	for i := range a {
		s0 += int32(a[i]) * int32(b[i])
	}
	return int64(s0) + int64(s1) + int64(s2) + int64(s3)
}

// candidate is an entry whose exact score may be among the k best.
type candidate struct {
	id    int64
	upper float64
}

// boundedSearch keeps the k best lower bounds and every entry whose upper bound
// reached their worst, so the exact k best are among the candidates.
type boundedSearch struct {
	code  queryCode
	qn    float64 // the query's float32 norm, as the exact path has it
	k     int
	kinds uint8
	slack float64 // the exact path's rounding, in cosine units
	lower topHeap
	cands []candidate
}

func newBoundedSearch(q []float32, k int, kinds uint8) *boundedSearch {
	d := float64(len(q))
	return &boundedSearch{code: quantizeQuery(q), qn: float64(norm(q)), k: k, kinds: kinds,
		slack: 2*d*unitRoundoff + 1e-7, lower: make(topHeap, 0, min(max(k, 0), 64))}
}

// add expects the caller to have checked the block's embedder.
func (sr *boundedSearch) add(blk *vecBlock) {
	if sr.k <= 0 || sr.kinds == 0 || blk.dims != len(sr.code.q16) {
		return
	}
	d := blk.dims
	grow := 1 + 2*float64(d)*unitRoundoff // the norms' own rounding
	for i, id := range blk.ids {
		if sr.kinds&(1<<blk.kinds[i]) == 0 {
			continue
		}
		var approx, bound float64
		switch n := float64(blk.norms[i]); {
		case !(sr.qn > 0 && n > 0):
			// The exact path scores 0 (a zero or NaN norm).
		case blk.scale[i] == 0 || sr.code.t == 0:
			// A vector or query that is not finite: its exact score
			// decides.
			bound = math.Inf(1)
		default:
			dot := float64(dotCode(sr.code.q16, blk.q8[i*d:(i+1)*d]))
			approx = sr.code.t * float64(blk.scale[i]) * dot / (sr.qn * n)
			bound = (float64(blk.resid[i])+sr.code.rho*float64(blk.ratio[i])+sr.slack)*grow + 1e-9
		}
		lo, hi := approx-bound, approx+bound
		if len(sr.lower) < sr.k || hi >= sr.lower[0].score {
			sr.cands = append(sr.cands, candidate{id, hi})
		}
		sr.lower.offer(scored{id, lo}, sr.k)
	}
}

// mergeBounded returns the candidates of a split scan in id order.
func mergeBounded(parts []*boundedSearch, k int) []int64 {
	var lows []float64
	n := 0
	for _, p := range parts {
		for _, l := range p.lower {
			lows = append(lows, l.score)
		}
		n += len(p.cands)
	}
	threshold := math.Inf(-1)
	if len(lows) >= k {
		slices.Sort(lows)
		threshold = lows[len(lows)-k]
	}
	ids := make([]int64, 0, min(n, 4*k+16))
	for _, p := range parts {
		for _, c := range p.cands {
			if c.upper >= threshold {
				ids = append(ids, c.id)
			}
		}
	}
	slices.Sort(ids)
	return ids
}

// parallelEntries is the set size from which a scan uses every CPU.
const parallelEntries = 20_000

// candidates scans a set of parallelEntries or more with one goroutine per
// CPU, each over every n-th block.
func (s *vecSet) candidates(q []float32, embedder string, k int, kinds uint8) []int64 {
	return s.candidatesFrom(q, embedder, k, kinds, parallelEntries)
}

// candidatesFrom is candidates with the set size from which the scan is
// parallel.
func (s *vecSet) candidatesFrom(q []float32, embedder string, k int, kinds uint8, parallelFrom int) []int64 {
	workers := 1
	if s.entries() >= parallelFrom {
		workers = max(1, min(runtime.GOMAXPROCS(0), len(s.blocks)))
	}
	parts := make([]*boundedSearch, workers)
	var wg sync.WaitGroup
	for w := range parts {
		parts[w] = newBoundedSearch(q, k, kinds)
		scan := func() {
			for bi := w; bi < len(s.blocks); bi += workers {
				if blk := &s.blocks[bi]; blk.embedder == embedder {
					parts[w].add(blk)
				}
			}
		}
		if workers == 1 {
			scan()
		} else {
			wg.Go(scan)
		}
	}
	wg.Wait()
	runtime.KeepAlive(s) // its blocks hold the memory of the codes just read
	return mergeBounded(parts, k)
}
