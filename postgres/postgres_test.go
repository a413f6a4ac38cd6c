package postgres_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/storetest"
	"github.com/nadine-robot/nadine/internal/tcpproxy"
	"github.com/nadine-robot/nadine/postgres"
)

var t0 = time.Date(2026, 11, 30, 14, 3, 12, 0, time.UTC)

// servers returns the test servers that are configured, by kind; CI must
// configure both.
func servers(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, env := range map[string]string{"stock": stockEnv, "pgvector": vectorEnv} {
		switch url := os.Getenv(env); {
		case url != "":
			out[name] = url
		case os.Getenv("CI") != "":
			t.Fatalf("%s is not set: CI must run the PostgreSQL tests (.ci/run starts the servers)", env)
		}
	}
	if len(out) == 0 {
		t.Skipf("neither %s nor %s is set: no PostgreSQL server to test against (see .ci/run)", stockEnv, vectorEnv)
	}
	return out
}

// needConcurrent skips a test that opens several connections at once on a
// server that takes one at a time (PGlite's).
func needConcurrent(t *testing.T, url string) {
	t.Helper()
	if oneConn(t, url) {
		t.Skip("the server takes one connection at a time (pool_max_conns=1): nothing concurrent to test")
	}
}

// TestShared runs the two-process checks on two stores (two pools) open on
// one schema.
func TestShared(t *testing.T) {
	for name, url := range servers(t) {
		t.Run(name, func(t *testing.T) {
			needConcurrent(t, url)
			a := open(t, url, postgres.Options{})
			b := open(t, url, postgres.Options{Schema: schemaOf(t, a)})
			storetest.Shared(t, a, b)
		})
	}
}

// schemaOf returns the schema a store keeps its tables in.
func schemaOf(t testing.TB, s *postgres.Store) string {
	t.Helper()
	got, err := postgres.QueryStrings(t.Context(), s, `SELECT current_schema()`)
	if err != nil || len(got) != 1 {
		t.Fatalf("current_schema() = %v, %v", got, err)
	}
	return got[0]
}

func migrationsApplied(t *testing.T, s *postgres.Store) []string {
	t.Helper()
	got, err := postgres.QueryStrings(t.Context(), s, `SELECT name FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestMigrateConcurrent opens four stores on one new schema at once, as
// processes of a fleet starting together do: the advisory lock lets each
// migration run once and every store open.
func TestMigrateConcurrent(t *testing.T) {
	for name, url := range servers(t) {
		t.Run(name, func(t *testing.T) {
			needConcurrent(t, url)
			schema := newSchema()
			const n = 4
			stores := make([]*postgres.Store, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() { stores[i], errs[i] = postgres.Open(t.Context(), url, postgres.Options{Schema: schema}) })
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("store %d: %v", i, err)
				}
			}
			t.Cleanup(func() {
				if err := postgres.DropSchema(context.Background(), stores[0], schema); err != nil {
					t.Error(err)
				}
				for _, s := range stores {
					s.Close()
				}
			})
			want := []string{"0001_init.sql"}
			if stores[0].Vector() {
				want = append(want, "0002_pgvector.sql", "0003_pgvector_columns.sql")
			}
			want = append(want, "0004_knowledge_sources.sql")
			if got := migrationsApplied(t, stores[0]); !slices.Equal(got, want) {
				t.Errorf("schema_migrations = %q, want %q", got, want)
			}
		})
	}
}

// TestReopen closes a store and opens its schema again: the data is there
// and no migration runs twice.
func TestReopen(t *testing.T) {
	for name, url := range servers(t) {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			schema := newSchema()
			s, err := postgres.Open(ctx, url, postgres.Options{Schema: schema})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.SaveProfile(ctx, nadine.Profile{UserID: "alice", UserName: "Alice", LastUpdated: t0}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.AddMemory(ctx, nadine.Memory{UserID: "alice", Type: nadine.MemoryFact, Text: "likes tea",
				Embedder: "e1", Embedding: []float32{1, 2, 3}}); err != nil {
				t.Fatal(err)
			}
			before := migrationsApplied(t, s)
			s.Close()

			s = open(t, url, postgres.Options{Schema: schema})
			if got := migrationsApplied(t, s); !slices.Equal(got, before) {
				t.Errorf("schema_migrations after reopening = %q, want %q", got, before)
			}
			p, err := s.Profile(ctx, "alice")
			if err != nil || p.UserName != "Alice" {
				t.Errorf("Profile after reopening = %+v, %v", p, err)
			}
			res, err := s.SearchMemories(ctx, "alice", nadine.MemoryQuery{Embedding: []float32{1, 2, 3}, Embedder: "e1", K: 1})
			if err != nil || len(res) != 1 || res[0].Text != "likes tea" || res[0].Score < 0.9999 {
				t.Errorf("SearchMemories after reopening = %+v, %v", res, err)
			}
		})
	}
}

// TestVectorUpgrade opens a schema without pgvector, stores memories and
// knowledge, and opens it again with pgvector: migration 2 converts the
// columns and everything is found as before.
func TestVectorUpgrade(t *testing.T) {
	url := serverURL(t, vectorEnv)
	ctx := t.Context()
	schema := newSchema()
	s, err := postgres.Open(ctx, url, postgres.Options{Schema: schema, Vector: postgres.VectorOff})
	if err != nil {
		t.Fatal(err)
	}
	if s.Vector() {
		t.Fatal("Vector() with VectorOff, want false")
	}
	if _, err := s.AddMemories(ctx, []nadine.Memory{
		{UserID: "alice", Type: nadine.MemoryFact, Text: "near", Embedder: "e1", Embedding: []float32{1, 0, 0}},
		{UserID: "alice", Type: nadine.MemoryFact, Text: "far", Embedder: "e1", Embedding: []float32{0, 1, 0}},
		{UserID: "alice", Type: nadine.MemoryFact, Text: "no vector"},
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddKnowledge(ctx, []nadine.KnowledgeChunk{{Title: "K", Text: "k", Embedder: "e1", Embedding: []float32{1, 0, 0}}}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s = open(t, url, postgres.Options{Schema: schema, Vector: postgres.VectorRequired})
	if !s.Vector() {
		t.Fatal("Vector() after reopening with VectorRequired, want true")
	}
	if got, want := migrationsApplied(t, s), []string{"0001_init.sql", "0002_pgvector.sql", "0003_pgvector_columns.sql", "0004_knowledge_sources.sql"}; !slices.Equal(got, want) {
		t.Errorf("schema_migrations = %q, want %q", got, want)
	}
	res, err := s.SearchMemories(ctx, "alice", nadine.MemoryQuery{Embedding: []float32{1, 0.1, 0}, Embedder: "e1", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if got := memoryTexts(res); !slices.Equal(got, []string{"near", "far"}) {
		t.Errorf("SearchMemories after the upgrade = %q, want near, far", got)
	}
	chunks, err := s.SearchKnowledge(ctx, []float32{1, 0, 0}, "e1", 1)
	if err != nil || len(chunks) != 1 || chunks[0].Title != "K" {
		t.Errorf("SearchKnowledge after the upgrade = %+v, %v", chunks, err)
	}
	ms, err := s.Memories(ctx, "alice")
	if err != nil || len(ms) != 3 {
		t.Errorf("Memories after the upgrade = %d, %v; want 3", len(ms), err)
	}
}

func memoryTexts(res []nadine.ScoredMemory) []string {
	var out []string
	for _, r := range res {
		out = append(out, r.Text)
	}
	return out
}

// TestKnowledgeIndexes checks that pgvector indexes each dimension of the
// knowledge base with HNSW (a halfvec expression above 2,000 dimensions)
// and that searches find the right chunks through it.
func TestKnowledgeIndexes(t *testing.T) {
	url := serverURL(t, vectorEnv)
	ctx := t.Context()
	s := open(t, url, postgres.Options{Vector: postgres.VectorRequired})
	big := func(i int) []float32 {
		v := make([]float32, 2500)
		v[i] = 1
		return v
	}
	var chunks []nadine.KnowledgeChunk
	for i := range 50 {
		v := make([]float32, 8)
		v[i%8], v[(i+1)%8] = 1, float32(i)/50
		chunks = append(chunks, nadine.KnowledgeChunk{Title: "small " + string(rune('A'+i)), Text: "t", Embedder: "e1", Embedding: v})
	}
	chunks = append(chunks,
		nadine.KnowledgeChunk{Title: "big 0", Text: "t", Embedder: "e2", Embedding: big(0)},
		nadine.KnowledgeChunk{Title: "big 1", Text: "t", Embedder: "e2", Embedding: big(1)})
	if err := s.AddKnowledge(ctx, chunks); err != nil {
		t.Fatal(err)
	}
	defs, err := postgres.QueryStrings(ctx, s, `SELECT indexdef FROM pg_indexes
		WHERE schemaname = current_schema() AND indexname LIKE 'knowledge_hnsw_%' ORDER BY indexname`)
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 2 || !strings.Contains(defs[0], "halfvec(2500)") || !strings.Contains(defs[1], "vector(8)") ||
		!strings.Contains(defs[0], "hnsw") || !strings.Contains(defs[1], "hnsw") {
		t.Errorf("knowledge indexes = %q, want HNSW on halfvec(2500) and vector(8)", defs)
	}
	// Adding more of a known dimension creates no other index.
	if err := s.AddKnowledge(ctx, chunks[:1]); err != nil {
		t.Fatal(err)
	}
	res, err := s.SearchKnowledge(ctx, big(1), "e2", 1)
	if err != nil || len(res) != 1 || res[0].Title != "big 1" || res[0].Score < 0.9999 {
		t.Errorf("SearchKnowledge of 2,500 dimensions = %+v, %v; want big 1", res, err)
	}
	q := make([]float32, 8)
	q[3] = 1
	res, err = s.SearchKnowledge(ctx, q, "e1", 3)
	if err != nil || len(res) != 3 {
		t.Fatalf("SearchKnowledge = %+v, %v; want 3 chunks", res, err)
	}
	for i := 1; i < len(res); i++ {
		if res[i].Score > res[i-1].Score {
			t.Errorf("SearchKnowledge results out of order: %v then %v", res[i-1].Score, res[i].Score)
		}
	}
	if res[0].Embedding[3] != 1 {
		t.Errorf("best chunk = %+v, want one with a 1 in dimension 3", res[0])
	}
}

// TestCleanText checks that what PostgreSQL's text and jsonb refuse (NUL,
// invalid UTF-8) is stored repaired instead of failing the write.
func TestCleanText(t *testing.T) {
	for name, url := range servers(t) {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			s := open(t, url, postgres.Options{})
			id, err := s.AddMemory(ctx, nadine.Memory{UserID: "alice", Type: nadine.MemoryFact, Text: "a\x00b",
				Metadata: map[string]string{"k\x00": "v\x00\xff"}})
			if err != nil {
				t.Fatal(err)
			}
			ms, err := s.Memories(ctx, "alice")
			if err != nil || len(ms) != 1 || ms[0].ID != id {
				t.Fatalf("Memories = %+v, %v", ms, err)
			}
			if ms[0].Text != "a\uFFFDb" || ms[0].Metadata["k\uFFFD"] != "v\uFFFD\uFFFD" {
				t.Errorf("memory read back = %q %q, want NUL and the bad byte as U+FFFD", ms[0].Text, ms[0].Metadata)
			}
			if err := s.SaveCheckpoint(ctx, "alice/\x00", []byte{0}); err != nil {
				t.Fatal(err)
			}
			if data, err := s.LoadCheckpoint(ctx, "alice/\x00"); err != nil || !slices.Equal(data, []byte{0}) {
				t.Errorf("LoadCheckpoint with a NUL in the key = %v, %v", data, err)
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	ctx := t.Context()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	tests := []struct {
		name, url, code string
	}{
		{"empty", " ", nadine.EINVALID},
		{"bad URL", "postgres://a b@/%zz", nadine.EINVALID},
		{"bad parameter", "postgres://localhost/db?pool_max_conns=many", nadine.EINVALID},
		{"nobody listening", "postgres://nadine:secret@" + closed + "/nadine?sslmode=disable", nadine.EUNAVAILABLE},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := postgres.Open(ctx, tt.url, postgres.Options{ConnectTimeout: 2 * time.Second})
			if got := nadine.ErrorCode(err); got != tt.code {
				t.Fatalf("Open(%q) error code %q (%v), want %q", tt.url, got, err, tt.code)
			}
			if !strings.HasPrefix(err.Error(), "postgres: ") || strings.Contains(err.Error(), "secret") {
				t.Errorf("Open error %q: want it to start with \"postgres: \" and hide the password", err)
			}
		})
	}
}

// TestServerGoesAway cuts the connections to the server under a store:
// calls fail with EUNAVAILABLE, and work again once the server is back.
func TestServerGoesAway(t *testing.T) {
	url := serverURL(t, stockEnv)
	host := strings.TrimPrefix(url, "postgres://")
	host = host[strings.Index(host, "@")+1:]
	host = host[:strings.IndexAny(host, "/?")]
	p := tcpproxy.New(t, host)
	proxied := strings.Replace(url, host, p.Addr(), 1)
	ctx := t.Context()
	s := open(t, url, postgres.Options{}) // owns the schema's cleanup
	s2, err := postgres.Open(ctx, proxied, postgres.Options{Schema: schemaOf(t, s), ConnectTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if err := s2.SaveProfile(ctx, nadine.Profile{UserID: "alice", UserName: "Alice"}); err != nil {
		t.Fatal(err)
	}

	p.Cut()
	_, err = s2.Profile(ctx, "alice")
	if got := nadine.ErrorCode(err); got != nadine.EUNAVAILABLE {
		t.Errorf("Profile with the server gone: code %q (%v), want %q", got, err, nadine.EUNAVAILABLE)
	}
	err = s2.SaveProfile(ctx, nadine.Profile{UserID: "alice", UserName: "Alicia"})
	if got := nadine.ErrorCode(err); got != nadine.EUNAVAILABLE {
		t.Errorf("SaveProfile with the server gone: code %q (%v), want %q", got, err, nadine.EUNAVAILABLE)
	}
	if err != nil && !strings.HasPrefix(err.Error(), "postgres: ") {
		t.Errorf("error %q does not start with \"postgres: \"", err)
	}

	p.Restore()
	var perr error
	for range 10 { // the pool may hand out a connection it has not yet found dead
		var got nadine.Profile
		if got, perr = s2.Profile(ctx, "alice"); perr == nil {
			if got.UserName != "Alice" {
				t.Errorf("Profile after the server came back = %+v, want Alice (the failed save stored nothing)", got)
			}
			break
		}
		if nadine.ErrorCode(perr) != nadine.EUNAVAILABLE {
			t.Fatalf("Profile while reconnecting: %v", perr)
		}
	}
	if perr != nil {
		t.Errorf("Profile after the server came back: %v", perr)
	}
}

// TestSearchThroughHNSW searches a user with more vectors than ExactLimit,
// which goes through the dimension's HNSW index: on a few vectors it finds
// the exact top-k, of that user only, and the counts the choice rests on
// follow every write and leave nothing of a forgotten user.
func TestSearchThroughHNSW(t *testing.T) {
	url := serverURL(t, vectorEnv)
	ctx := t.Context()
	s := open(t, url, postgres.Options{Vector: postgres.VectorRequired, ExactLimit: 3})
	rng := rand.New(rand.NewPCG(3, 4))
	vecs := map[int64][]float32{}
	for _, user := range []string{"alice", "bob"} {
		for i := range 40 {
			v := randomVector(rng, 16)
			id, err := s.AddMemory(ctx, nadine.Memory{UserID: user, Type: nadine.MemoryFact, Text: fmt.Sprintf("%s %d", user, i),
				Embedder: "e1", Embedding: v})
			if err != nil {
				t.Fatal(err)
			}
			if user == "alice" {
				vecs[id] = v
			}
		}
	}
	defs, err := postgres.QueryStrings(ctx, s, `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE 'memories_hnsw_%'`)
	if err != nil || !slices.Equal(defs, []string{"memories_hnsw_16"}) {
		t.Fatalf("memory HNSW indexes = %q, %v; want memories_hnsw_16", defs, err)
	}
	for range 5 {
		q := randomVector(rng, 16)
		res, err := s.SearchMemories(ctx, "alice", nadine.MemoryQuery{Embedding: q, Embedder: "e1", K: 5})
		if err != nil {
			t.Fatal(err)
		}
		var want []int64
		for id := range vecs {
			want = append(want, id)
		}
		slices.SortFunc(want, func(a, b int64) int { return cmpScore(cosine(q, vecs[b]), cosine(q, vecs[a])) })
		var got []int64
		for _, r := range res {
			if r.UserID != "alice" {
				t.Fatalf("search of alice returned %+v", r.Memory)
			}
			got = append(got, r.ID)
		}
		if !slices.Equal(got, want[:5]) {
			t.Errorf("top 5 through HNSW = %v, want %v", got, want[:5])
		}
	}
	counts := func() []string {
		got, err := postgres.QueryStrings(ctx, s, `SELECT user_id || ' ' || embedder || ' ' || dims || ' ' || n FROM memory_spaces ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got, want := counts(), []string{"alice e1 16 40", "bob e1 16 40"}; !slices.Equal(got, want) {
		t.Errorf("memory_spaces = %q, want %q", got, want)
	}
	var first int64
	for id := range vecs {
		first = id
		break
	}
	if err := s.UpdateMemoryEmbedding(ctx, "alice", first, "e2", []float32{1, 0}); err != nil {
		t.Fatal(err)
	}
	if got, want := counts(), []string{"alice e1 16 39", "alice e2 2 1", "bob e1 16 40"}; !slices.Equal(got, want) {
		t.Errorf("memory_spaces after re-embedding one = %q, want %q", got, want)
	}
	if err := s.ForgetUser(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	if got, want := counts(), []string{"bob e1 16 40"}; !slices.Equal(got, want) {
		t.Errorf("memory_spaces after ForgetUser(alice) = %q, want %q", got, want)
	}
	if err := s.DeleteMemories(ctx, "bob"); err != nil {
		t.Fatal(err)
	}
	if got := counts(); len(got) != 0 {
		t.Errorf("memory_spaces after deleting every memory = %q, want none", got)
	}
}

func cmpScore(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return ab / math.Sqrt(aa*bb)
}
