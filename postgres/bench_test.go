package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/postgres"
)

// Benchmark sizes: issue 18's target, one person with 100,000 memories of
// 768 dimensions (NADINE_BENCH_DOCS sets another number of memories).
const (
	benchDims  = 768
	benchBatch = 500
	benchUser  = "alex"
)

// benchDocs returns the number of memories of the fixture.
func benchDocs() int {
	if n, err := strconv.Atoi(os.Getenv("NADINE_BENCH_DOCS")); err == nil && n >= benchBatch {
		return n / benchBatch * benchBatch
	}
	return 100_000
}

// Memories of the fixture are drawn around benchTopics centres, as a
// person's memories gather around the things they talk about: memory k is
// topic k mod benchTopics plus noise (cosine about 0.86 to its centre,
// 0.74 between two memories of a topic, 0 across topics). A query is a
// stored memory plus a little noise, as a question about something the
// person said. Uniformly random vectors would make every memory almost
// equally far from every query, which no embedding model does and which
// no approximate index can search.
const (
	benchTopics     = 1000
	benchTopicNoise = 0.6
	benchQueryNoise = 0.3
)

// benchData draws the topic centres of the fixture.
type benchData struct {
	centres [][]float32
}

func newBenchData() *benchData {
	rng := rand.New(rand.NewPCG(5, 6))
	d := &benchData{centres: make([][]float32, benchTopics)}
	for i := range d.centres {
		d.centres[i] = randomVector(rng, benchDims)
	}
	return d
}

// memory returns the vector of memory k.
func (d *benchData) memory(k int) []float32 {
	rng := rand.New(rand.NewPCG(7, uint64(k)))
	v := slices.Clone(d.centres[k%benchTopics])
	for i := range v {
		v[i] += benchTopicNoise * float32(rng.NormFloat64())
	}
	return v
}

// query returns a query near a random stored memory of n.
func (d *benchData) query(rng *rand.Rand, n int) []float32 {
	v := d.memory(rng.IntN(n))
	for i := range v {
		v[i] += benchQueryNoise * float32(rng.NormFloat64())
	}
	return v
}

func randomVector(rng *rand.Rand, dims int) []float32 {
	v := make([]float32, dims)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return v
}

// benchFixture opens a store on url in a schema that holds benchDocs
// memories of one user, building it when it is missing or incomplete. The
// schema is dropped at the end unless NADINE_BENCH_KEEP is set (building
// takes minutes).
func benchFixture(b *testing.B, url string, mode postgres.VectorMode) *postgres.Store {
	ctx := b.Context()
	docs := benchDocs()
	schema := fmt.Sprintf("nadine_bench_topics_%d_%d_%d", docs, benchDims, mode)
	s, err := postgres.Open(ctx, url, postgres.Options{Schema: schema, Vector: mode})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if os.Getenv("NADINE_BENCH_KEEP") == "" {
			if err := postgres.DropSchema(context.Background(), s, schema); err != nil {
				b.Error(err)
			}
		}
		s.Close()
	})
	n, err := postgres.QueryStrings(ctx, s, `SELECT count(*)::text FROM memories WHERE user_id = $1`, benchUser)
	if err != nil {
		b.Fatal(err)
	}
	if n[0] == fmt.Sprint(docs) {
		return s
	}
	if err := s.DeleteMemories(ctx, benchUser); err != nil {
		b.Fatal(err)
	}
	data := newBenchData()
	types := []nadine.MemoryType{nadine.MemoryConversation, nadine.MemoryEpisode, nadine.MemoryFact}
	start := time.Now()
	var indexDef string
	for from := 0; from < docs; from += benchBatch {
		ms := make([]nadine.Memory, benchBatch)
		for i := range ms {
			k := from + i
			ms[i] = nadine.Memory{UserID: benchUser, Type: types[k%len(types)],
				Text:           fmt.Sprintf("[2026-11-30 14:03:12] Alex: memory number %d, a line or two of conversation.", k),
				ConversationID: fmt.Sprintf("conv-%d", k/50), Time: time.Unix(1_790_000_000+int64(k), 0),
				Embedder: "bench", Embedding: data.memory(k)}
		}
		if _, err := s.AddMemories(ctx, ms); err != nil {
			b.Fatal(err)
		}
		if from == 0 && s.Vector() {
			// The first batch created the HNSW index; building it once
			// after the load is many times faster than inserting into it.
			defs, err := postgres.QueryStrings(ctx, s, `SELECT indexdef FROM pg_indexes
				WHERE schemaname = current_schema() AND indexname = 'memories_hnsw_768'`)
			if err != nil || len(defs) != 1 {
				b.Fatalf("HNSW index of the fixture: %q, %v", defs, err)
			}
			indexDef = defs[0]
			if err := postgres.Exec(ctx, s, `DROP INDEX memories_hnsw_768`); err != nil {
				b.Fatal(err)
			}
		}
	}
	if indexDef != "" {
		b.Logf("fixture: %d memories loaded in %v; building the HNSW index", docs, time.Since(start).Round(time.Millisecond))
		if err := postgres.Exec(ctx, s, `SET maintenance_work_mem = '1GB'`); err != nil {
			b.Fatal(err)
		}
		if err := postgres.Exec(ctx, s, indexDef); err != nil {
			b.Fatal(err)
		}
	}
	if err := postgres.Exec(ctx, s, `ANALYZE memories`); err != nil {
		b.Fatal(err)
	}
	b.Logf("fixture: %d memories of %d dims in %v (%.0f memories/s)", docs, benchDims,
		time.Since(start).Round(time.Millisecond), float64(docs)/time.Since(start).Seconds())
	return s
}

// BenchmarkSearchMemories measures a top-5 search over one person's
// 100,000 memories of 768 dimensions (drawn around topics, see benchData): with pgvector through the HNSW index
// (the default above Options.ExactLimit) and exactly (ExactLimit -1), and
// on stock PostgreSQL, where the store ranks the vectors it reads. It
// reports the median and the 95th percentile of the searches (p50-ms,
// p95-ms) and, for HNSW, the share of the exact top 5 it found over 20
// queries (recall@5). -short skips it.
func BenchmarkSearchMemories(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a 100,000-memory fixture")
	}
	b.Run("pgvector", func(b *testing.B) {
		url := os.Getenv(vectorEnv)
		if url == "" {
			b.Skipf("%s is not set", vectorEnv)
		}
		s := benchFixture(b, url, postgres.VectorRequired)
		exact, err := postgres.Open(b.Context(), url, postgres.Options{Schema: schemaOf(b, s), ExactLimit: -1})
		if err != nil {
			b.Fatal(err)
		}
		defer exact.Close()
		// 100 is the store's default; 40 pgvector's own: faster, finds less.
		for _, ef := range []int{100, 40} {
			hnsw, err := postgres.Open(b.Context(), url, postgres.Options{Schema: schemaOf(b, s), EfSearch: ef})
			if err != nil {
				b.Fatal(err)
			}
			defer hnsw.Close()
			b.Run(fmt.Sprintf("hnsw-ef%d", ef), func(b *testing.B) {
				benchSearch(b, hnsw)
				b.ReportMetric(recall(b, hnsw, exact, 20), "recall@5")
			})
		}
		b.Run("exact", func(b *testing.B) { benchSearch(b, exact) })
	})
	b.Run("stock", func(b *testing.B) {
		url := os.Getenv(stockEnv)
		if url == "" {
			b.Skipf("%s is not set", stockEnv)
		}
		benchSearch(b, benchFixture(b, url, postgres.VectorOff))
	})
}

// benchSearch times top-5 searches with random query vectors.
func benchSearch(b *testing.B, s *postgres.Store) {
	rng := rand.New(rand.NewPCG(9, 10))
	data, docs := newBenchData(), benchDocs()
	ctx := b.Context()
	var took []time.Duration
	for b.Loop() {
		q := data.query(rng, docs)
		start := time.Now()
		res, err := s.SearchMemories(ctx, benchUser, nadine.MemoryQuery{Embedding: q, Embedder: "bench", K: 5})
		took = append(took, time.Since(start))
		if err != nil || len(res) != 5 {
			b.Fatalf("SearchMemories = %d results, %v", len(res), err)
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
}

// recall returns the share of the exact top 5 that s finds, over n random
// queries.
func recall(b *testing.B, s, exact *postgres.Store, n int) float64 {
	rng := rand.New(rand.NewPCG(11, 12))
	data, docs := newBenchData(), benchDocs()
	found := 0
	for range n {
		q := nadine.MemoryQuery{Embedding: data.query(rng, docs), Embedder: "bench", K: 5}
		got, err := s.SearchMemories(b.Context(), benchUser, q)
		if err != nil {
			b.Fatal(err)
		}
		want, err := exact.SearchMemories(b.Context(), benchUser, q)
		if err != nil {
			b.Fatal(err)
		}
		for _, w := range want {
			if slices.ContainsFunc(got, func(g nadine.ScoredMemory) bool { return g.ID == w.ID }) {
				found++
			}
		}
	}
	return float64(found) / float64(5*n)
}
