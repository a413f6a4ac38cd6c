package sqlite_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/sqlite"
)

// Benchmark sizes: 100,000 memories of 768 dimensions over 100 users.
const (
	benchUsers = 100
	benchDocs  = 100_000
	benchDims  = 768
	benchBatch = 1000
)

func randomVector(rng *rand.Rand, dims int) []float32 {
	v := make([]float32, dims)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return v
}

// benchMemories returns n memories spread round-robin over the users, as a
// robot that meets them in turn would store them.
func benchMemories(rng *rand.Rand, from, n int) []nadine.Memory {
	ms := make([]nadine.Memory, n)
	types := []nadine.MemoryType{nadine.MemoryConversation, nadine.MemoryEpisode, nadine.MemoryFact}
	for i := range ms {
		k := from + i
		ms[i] = nadine.Memory{
			UserID:         fmt.Sprintf("user-%03d", k%benchUsers),
			Type:           types[k%len(types)],
			Text:           fmt.Sprintf("[2026-11-30 14:03:12] Alex: memory number %d, a line or two of conversation.", k),
			ConversationID: fmt.Sprintf("conv-%d", k/50),
			Time:           time.Unix(1_790_000_000+int64(k), 0),
			Embedder:       "bench",
			Embedding:      randomVector(rng, benchDims),
		}
	}
	return ms
}

// BenchmarkSearchMemories measures a top-5 search for one user among
// 100,000 memories of 768 dimensions spread over 100 users, with the user's
// vectors cached (warm), read from the vector index on every query by a
// store without cache (cold), and read then cached by a store whose every
// query is a cache miss (cold-miss: the first turn of a person). The
// fixture is built once per run in a temporary directory; -short skips it.
func BenchmarkSearchMemories(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a 100,000-memory fixture")
	}
	ctx := b.Context()
	path := filepath.Join(b.TempDir(), "nadine.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(7, 8))
	start := time.Now()
	for from := 0; from < benchDocs; from += benchBatch {
		if _, err := s.AddMemories(ctx, benchMemories(rng, from, benchBatch)); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("fixture: %d memories of %d dims in %v (%.0f memories/s)", benchDocs, benchDims,
		time.Since(start).Round(time.Millisecond), benchDocs/time.Since(start).Seconds())

	cold, err := sqlite.Open(ctx, path, sqlite.Options{CacheBytes: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer cold.Close()

	// A cache of about 10 users (3 MiB of vectors each) queried
	// round-robin over the 100: every query misses, loads the user's
	// vectors from SQLite and caches them.
	miss, err := sqlite.Open(ctx, path, sqlite.Options{CacheBytes: 32 << 20})
	if err != nil {
		b.Fatal(err)
	}
	defer miss.Close()

	q := nadine.MemoryQuery{Embedding: randomVector(rng, benchDims), Embedder: "bench", K: 5}
	for _, bb := range []struct {
		name   string
		store  *sqlite.Store
		types  []nadine.MemoryType
		rotate bool // query user-000 … user-099 in turn instead of user-042
	}{
		{"warm", s, nil, false},
		{"warm-episodes", s, []nadine.MemoryType{nadine.MemoryEpisode}, false},
		{"cold", cold, nil, false},
		{"cold-episodes", cold, []nadine.MemoryType{nadine.MemoryEpisode}, false},
		{"cold-miss", miss, nil, true},
	} {
		b.Run(bb.name, func(b *testing.B) {
			q := q
			q.Types = bb.types
			user, i := "user-042", 0
			for b.Loop() {
				// Warm: the same user's vectors stay cached between
				// queries. Cold: that store has no cache, so the user's
				// vectors are read from SQLite on every query. Cold-miss:
				// the store caches, but every query is for a user whose
				// vectors were evicted.
				if bb.rotate {
					user = fmt.Sprintf("user-%03d", i%benchUsers)
					i++
				}
				res, err := bb.store.SearchMemories(ctx, user, q)
				if err != nil || len(res) != 5 {
					b.Fatalf("search = %d results, %v", len(res), err)
				}
			}
		})
	}
}

// BenchmarkAddMemories measures batch insert throughput (1,000 memories of
// 768 dimensions per transaction).
func BenchmarkAddMemories(b *testing.B) {
	s := open(b, sqlite.Options{})
	rng := rand.New(rand.NewPCG(1, 2))
	batch := benchMemories(rng, 0, benchBatch)
	for b.Loop() {
		if _, err := s.AddMemories(b.Context(), batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*benchBatch)/b.Elapsed().Seconds(), "memories/s")
}

// BenchmarkAddMemory measures single inserts, one durable transaction each.
func BenchmarkAddMemory(b *testing.B) {
	s := open(b, sqlite.Options{})
	rng := rand.New(rand.NewPCG(1, 2))
	m := benchMemories(rng, 0, 1)[0]
	for b.Loop() {
		if _, err := s.AddMemory(b.Context(), m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "memories/s")
}

// BenchmarkAppendMessage measures one durable message append.
func BenchmarkAppendMessage(b *testing.B) {
	s := open(b, sqlite.Options{})
	m := nadine.Message{Role: nadine.RoleUser, Content: "Hello Nadine, how are you today?", Time: 1_790_000_000}
	for b.Loop() {
		if _, err := s.AppendMessage(b.Context(), "alex", "c1", m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearchOnePerson measures the searches of one turn of the graph
// engine (the best episode and the best conversation memory) for one
// person with 100,000 memories of 256 dimensions: warm, their vectors
// cached quantized (the default above 8 MiB), and exact, without cache
// (every search reads the person's 100 MB of vectors). It reports the
// cached set's size. -short skips it.
func BenchmarkSearchOnePerson(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a 100,000-memory fixture")
	}
	const n, dims = 100_000, 256
	ctx := b.Context()
	path := filepath.Join(b.TempDir(), "nadine.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(11, 12))
	types := []nadine.MemoryType{nadine.MemoryConversation, nadine.MemoryEpisode}
	for from := 0; from < n; from += benchBatch {
		ms := make([]nadine.Memory, benchBatch)
		for i := range ms {
			ms[i] = nadine.Memory{UserID: "robin", Type: types[(from+i)%2], Text: fmt.Sprintf("memory %d", from+i),
				Embedder: "bench", Embedding: randomVector(rng, dims)}
		}
		if _, err := s.AddMemories(ctx, ms); err != nil {
			b.Fatal(err)
		}
	}
	exact, err := sqlite.Open(ctx, path, sqlite.Options{CacheBytes: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer exact.Close()
	for _, bb := range []struct {
		name  string
		store *sqlite.Store
	}{{"quantized", s}, {"exact-scan", exact}} {
		b.Run(bb.name, func(b *testing.B) {
			// The first search loads (and quantizes) the person's vectors.
			if _, err := bb.store.SearchMemories(ctx, "robin", nadine.MemoryQuery{Embedding: randomVector(rng, dims), Embedder: "bench", K: 1}); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				q := randomVector(rng, dims)
				for _, typ := range types {
					res, err := bb.store.SearchMemories(ctx, "robin", nadine.MemoryQuery{Embedding: q, Embedder: "bench", K: 1,
						Types: []nadine.MemoryType{typ}})
					if err != nil || len(res) != 1 {
						b.Fatalf("search = %d results, %v", len(res), err)
					}
				}
			}
			if bb.store == s {
				b.ReportMetric(float64(sqlite.CacheUsed(s))/(1<<20), "cache-MiB")
			}
		})
	}
}
