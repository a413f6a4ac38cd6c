package sqlite

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestQuantizeBound: for vectors and queries of every kind (Gaussian,
// sparse, one huge coordinate, tiny values), the exact path's score is
// within the bound of the quantized score, whatever the dimension.
func TestQuantizeBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	gen := []func(d int) []float32{
		func(d int) []float32 { return gaussian(rng, d, 1) },
		func(d int) []float32 { return gaussian(rng, d, 1e-20) },
		func(d int) []float32 { // sparse
			v := make([]float32, d)
			for range max(1, d/10) {
				v[rng.IntN(d)] = float32(rng.NormFloat64())
			}
			return v
		},
		func(d int) []float32 { // one coordinate dominates
			v := gaussian(rng, d, 0.01)
			v[rng.IntN(d)] = 50
			return v
		},
	}
	for _, d := range []int{1, 3, 8, 17, 256, 768, 3072} {
		for trial := range 200 {
			v, q := gen[trial%len(gen)](d), gen[(trial/len(gen))%len(gen)](d)
			var b setBuilder
			b.add(1, kindFact, "e", v)
			qb := quantizedBlock(&b.set.blocks[0])
			sr := newBoundedSearch(q, 1, allKinds)
			sr.add(&qb)
			if len(sr.cands) != 1 || len(sr.lower) != 1 {
				t.Fatalf("d=%d: %d candidates, %d bounds; want 1 and 1", d, len(sr.cands), len(sr.lower))
			}
			exact := cosineScore(q, float64(norm(q)), v, norm(v))
			lo, hi := sr.lower[0].score, sr.cands[0].upper
			if exact < lo || exact > hi {
				t.Errorf("d=%d trial %d: exact score %v outside [%v, %v]", d, trial, exact, lo, hi)
			}
			if w := hi - lo; d >= 256 && trial%len(gen) == 0 && (trial/len(gen))%len(gen) == 0 && w > 0.05 {
				t.Errorf("d=%d: bound width %v on Gaussian vectors, want it tight", d, w)
			}
		}
	}
}

func gaussian(rng *rand.Rand, d int, scale float64) []float32 {
	v := make([]float32, d)
	for i := range v {
		v[i] = float32(rng.NormFloat64() * scale)
	}
	return v
}

// TestQuantizedSearchExact compares a store that keeps one person's
// vectors quantized with one that scans them exactly, on the same file:
// every query gives the same memories, in the same order, with the same
// scores, bit for bit, on data made to be hard for the bound (clusters of
// near-identical vectors, exact duplicates, zero vectors, several types,
// another embedder). The fixture is above the size from which the scan is
// split over the CPUs (lowered for the test: the production size, 20,000,
// takes 20 s to insert under the race detector, and the split is the same).
func TestQuantizedSearchExact(t *testing.T) {
	t.Parallel() // its own stores in its own directories
	if testing.Short() {
		t.Skip("builds a fixture above the parallel scan's size")
	}
	ctx := t.Context()
	quant, exact, _ := openPair(t, Options{QuantizeAbove: 1})
	quant.parallelFrom = testParallelFrom

	const dims, n = 16, testParallelFrom + 1000
	rng := rand.New(rand.NewPCG(5, 6))
	centers := make([][]float32, 40)
	for i := range centers {
		centers[i] = gaussian(rng, dims, 1)
	}
	types := []nadine.MemoryType{nadine.MemoryConversation, nadine.MemoryEpisode, nadine.MemoryFact}
	var ms []nadine.Memory
	for i := range n {
		v := slices.Clone(centers[i%len(centers)])
		switch {
		case i%97 == 0:
			clear(v) // a zero vector
		case i%5 == 0:
			// an exact duplicate of its center
		default:
			for j := range v {
				v[j] += float32(rng.NormFloat64() * 1e-3)
			}
		}
		embedder := "e1"
		if i%50 == 0 {
			embedder = "e2"
		}
		ms = append(ms, nadine.Memory{UserID: "robin", Type: types[i%3], Text: fmt.Sprint(i), Embedder: embedder, Embedding: v})
	}
	for from := 0; from < n; from += 2000 {
		if _, err := quant.AddMemories(ctx, ms[from:min(n, from+2000)]); err != nil {
			t.Fatal(err)
		}
	}
	set, err := quant.userVectors(ctx, "robin")
	if err != nil || !set.quantized || set.entries() != n {
		t.Fatalf("robin's cached set: quantized %v, %d entries, %v; want quantized, %d", set != nil && set.quantized, set.entries(), err, n)
	}
	if len(set.blocks) < 2 {
		t.Fatalf("robin's cached set is %d block: the parallel scan has nothing to split", len(set.blocks))
	}

	// The zero query, then three of each kind: 90 searches on both stores,
	// every kind × k × type filter three times; more draws of the same
	// kinds reach no other branch.
	queries := [][]float32{make([]float32, dims)}
	for i := range 9 {
		switch i % 3 {
		case 0:
			queries = append(queries, gaussian(rng, dims, 1))
		case 1:
			queries = append(queries, slices.Clone(centers[rng.IntN(len(centers))]))
		default:
			q := slices.Clone(centers[rng.IntN(len(centers))])
			for j := range q {
				q[j] = q[j]*3 + float32(rng.NormFloat64()*1e-4)
			}
			queries = append(queries, q)
		}
	}
	filters := [][]nadine.MemoryType{nil, {nadine.MemoryEpisode}, {nadine.MemoryConversation, nadine.MemoryFact}}
	reranked, checked := 0, 0
	for qi, q := range queries {
		for _, k := range []int{1, 5, 30} {
			for _, types := range filters {
				mq := nadine.MemoryQuery{Embedding: q, Embedder: "e1", K: k, Types: types}
				got, err := quant.SearchMemories(ctx, "robin", mq)
				if err != nil {
					t.Fatal(err)
				}
				want, err := exact.SearchMemories(ctx, "robin", mq)
				if err != nil {
					t.Fatal(err)
				}
				if !sameResults(got, want) {
					t.Fatalf("query %d, k %d, types %v:\n got %v\nwant %v", qi, k, types, summary(got), summary(want))
				}
				if ids := set.candidates(q, "e1", k, kindMask(types)); len(ids) <= maxCandidates {
					reranked++
				}
				checked++
			}
		}
	}
	// Near-identical clusters make many candidates; the search stays
	// exact either way, through the rerank or the exact scan.
	t.Logf("%d searches, %d decided by a rerank of the candidates", checked, reranked)
	if reranked == 0 {
		t.Error("no search was decided by the rerank: the bounded scan is never used")
	}
}

// testParallelFrom is the set size from which the scan is parallel in
// TestQuantizedSearchExact: several blocks of 16 dimensions, so that each
// CPU scans some.
const testParallelFrom = 4000

func sameResults(a, b []nadine.ScoredMemory) bool {
	return slices.EqualFunc(a, b, func(x, y nadine.ScoredMemory) bool {
		return x.ID == y.ID && x.Text == y.Text && math.Float64bits(x.Score) == math.Float64bits(y.Score) && x.Embedding == nil && y.Embedding == nil
	})
}

func summary(rs []nadine.ScoredMemory) []string {
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s:%.9f", r.Text, r.Score))
	}
	return out
}

// TestQuantizedCandidatesFew: on vectors spread like embeddings, the
// bounded scan leaves a handful of candidates, so that a search reads a
// handful of stored vectors.
func TestQuantizedCandidatesFew(t *testing.T) {
	t.Parallel() // its own stores in its own directories
	rng := rand.New(rand.NewPCG(9, 10))
	const dims, n = 256, 5000
	var b setBuilder
	for i := range n {
		b.add(int64(i+1), kindConversation, "e", gaussian(rng, dims, 1))
	}
	q := &vecSet{quantized: true}
	for i := range b.set.blocks {
		q.blocks = append(q.blocks, quantizedBlock(&b.set.blocks[i]))
	}
	total := 0
	for range 50 {
		ids := q.candidates(gaussian(rng, dims, 1), "e", 1, allKinds)
		if len(ids) == 0 {
			t.Fatal("no candidate")
		}
		total += len(ids)
	}
	if mean := float64(total) / 50; mean > 20 {
		t.Errorf("%.1f candidates per top-1 search of %d vectors, want a handful", mean, n)
	}
	if got, want := q.bytes(), b.set.bytes()/3; got > want {
		t.Errorf("quantized set of %d bytes, want under a third of the %d of float32", got, b.set.bytes())
	}
}

// quantizedBlock returns blk quantized: its ids, kinds and norms, and its
// vectors in int8 (blk.vecs is read, not kept).
func quantizedBlock(blk *vecBlock) vecBlock {
	n, d := len(blk.ids), blk.dims
	out := vecBlock{embedder: blk.embedder, dims: d, ids: blk.ids, kinds: blk.kinds,
		norms: blk.norms, q8: make([]int8, 0, n*d),
		scale: make([]float32, n), resid: make([]float32, n), ratio: make([]float32, n)}
	for i := range n {
		out.q8, out.scale[i], out.resid[i], out.ratio[i] = quantizeVector(out.q8, blk.vecs[i*d:(i+1)*d])
	}
	return out
}
