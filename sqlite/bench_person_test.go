package sqlite

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
)

// BenchmarkPerson100k measures, for one person with 100,000 memories of
// 256 dimensions (the bench's embedder; half episodes, half conversation
// chunks), the first load of their vectors into the cache (quantized, as
// the default QuantizeAbove has it) and one search of the loaded set, of
// all their memories or of their episodes only (the graph's search). The
// load reports the set's size and the peak of the live heap while it runs
// over the heap before it (peak-heap-MiB, sampled); ns/op of a search is
// the per-search time an engine's turn pays for each search, scan-* the
// scan of the quantized set alone. -short skips it.
func BenchmarkPerson100k(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a 100,000-memory fixture")
	}
	const n, dims = 100_000, 256
	ctx := b.Context()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "nadine.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(21, 22))
	gauss := func() []float32 {
		v := make([]float32, dims)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	types := []nadine.MemoryType{nadine.MemoryConversation, nadine.MemoryEpisode}
	for from := 0; from < n; from += 1000 {
		ms := make([]nadine.Memory, 1000)
		for i := range ms {
			ms[i] = nadine.Memory{UserID: "robin", Type: types[(from+i)%2], Text: fmt.Sprintf("memory %d", from+i),
				Embedder: "bench", Embedding: gauss()}
		}
		if _, err := s.AddMemories(ctx, ms); err != nil {
			b.Fatal(err)
		}
	}

	b.Run("load", func(b *testing.B) {
		b.ReportAllocs()
		var set *vecSet
		peak := heapPeak(func() {
			for b.Loop() {
				if set, err = s.loadVectors(ctx, "robin"); err != nil || set.entries() != n {
					b.Fatalf("load: %v", err)
				}
			}
		})
		b.ReportMetric(float64(set.bytes())/(1<<20), "set-MiB")
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	})
	for _, bb := range []struct {
		name  string
		types []nadine.MemoryType
	}{{"search-all", nil}, {"search-episodes", []nadine.MemoryType{nadine.MemoryEpisode}}} {
		b.Run(bb.name, func(b *testing.B) {
			q := nadine.MemoryQuery{Embedding: gauss(), Embedder: "bench", K: 3, Types: bb.types}
			if _, err := s.SearchMemories(ctx, "robin", q); err != nil { // loads
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if res, err := s.SearchMemories(ctx, "robin", q); err != nil || len(res) != 3 {
					b.Fatalf("search = %d results, %v", len(res), err)
				}
			}
		})
		// The scan of the quantized set alone, without the rerank of its
		// candidates (which reads their rows).
		b.Run("scan-"+bb.name[len("search-"):], func(b *testing.B) {
			set, err := s.userVectors(ctx, "robin")
			if err != nil {
				b.Fatal(err)
			}
			q := gauss()
			b.ReportAllocs()
			for b.Loop() {
				if ids := set.candidates(q, "bench", 3, kindMask(bb.types)); len(ids) < 3 {
					b.Fatalf("%d candidates", len(ids))
				}
			}
		})
	}
}

// heapPeak runs fn and returns the peak of the heap's live objects while
// it ran above their bytes before, sampled every 100 µs.
func heapPeak(fn func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var (
		peak uint64
		wg   sync.WaitGroup
	)
	stop := make(chan struct{})
	wg.Go(func() {
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				peak = max(peak, read())
			}
		}
	})
	fn()
	close(stop)
	wg.Wait()
	peak = max(peak, read())
	if peak < base {
		return 0
	}
	return peak - base
}
