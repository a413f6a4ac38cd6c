package sqlite

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/migrations"
	"github.com/nadine-robot/nadine/internal/records"
)

// wideDims is a dimension whose blocks hold few vectors, so that a handful
// of memories spans several blocks.
const wideDims = 3000

func init() {
	if blockEntries(wideDims) > 8 {
		panic("wideDims no longer spans blocks quickly")
	}
}

// vec returns a deterministic vector of n values seeded by seed.
func vec(seed, n int) []float32 {
	v := make([]float32, n)
	x := uint32(seed*2654435761 + 1)
	for i := range v {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		v[i] = float32(int32(x%2001)-1000) / 1000
	}
	return v
}

// tableVector is a memory vector as the memories table holds it.
type tableVector struct {
	userID, embedder string
	dims             int
	kind             uint8
	vec              []byte
}

// checkIndex fails the test unless memory_vectors holds exactly the
// vectors of the memories table, each once, in well-formed blocks.
func checkIndex(t *testing.T, db *sql.DB) {
	t.Helper()
	ctx := context.Background()
	want := map[int64]tableVector{}
	rows, err := db.QueryContext(ctx, `SELECT id, user_id, type, embedder, embedding FROM memories WHERE dims > 0`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var (
			id  int64
			typ string
			tv  tableVector
		)
		if err := rows.Scan(&id, &tv.userID, &typ, &tv.embedder, &tv.vec); err != nil {
			t.Fatal(err)
		}
		if len(tv.vec) == 0 || len(tv.vec)%4 != 0 {
			continue // not indexable
		}
		tv.dims, tv.kind = len(tv.vec)/4, kindCode(nadine.MemoryType(typ))
		want[id] = tv
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}

	seen := map[int64]bool{}
	rows, err = db.QueryContext(ctx, `SELECT user_id, embedder, dims, block, count, ids, types, norms, vecs
		FROM memory_vectors`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			userID, embedder         string
			dims, count              int
			block                    int64
			ids, kinds, norms, vecs_ []byte
		)
		if err := rows.Scan(&userID, &embedder, &dims, &block, &count, &ids, &kinds, &norms, &vecs_); err != nil {
			t.Fatal(err)
		}
		where := fmt.Sprintf("block %d of (%q, %q, %d)", block, userID, embedder, dims)
		if err := checkBlock(userID, embedder, dims, ids, kinds, norms, vecs_); err != nil || count != len(kinds) {
			t.Fatalf("%s: count %d, %d kinds: %v", where, count, len(kinds), err)
		}
		if count == 0 || count > blockEntries(dims) {
			t.Errorf("%s holds %d vectors, want 1 to %d", where, count, blockEntries(dims))
		}
		vs, err := records.DecodeVector(vecs_, nil)
		if err != nil {
			t.Fatal(err)
		}
		ns, err := records.DecodeVector(norms, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, id := range decodeIDs(ids, nil) {
			tv, ok := want[id]
			switch {
			case seen[id]:
				t.Errorf("%s: memory %d indexed twice", where, id)
			case !ok:
				t.Errorf("%s: memory %d has no vector in the table", where, id)
			case tv.userID != userID || tv.embedder != embedder || tv.dims != dims:
				t.Errorf("%s: memory %d is of (%q, %q, %d)", where, id, tv.userID, tv.embedder, tv.dims)
			case tv.kind != kinds[i]:
				t.Errorf("%s: memory %d kind %d, want %d", where, id, kinds[i], tv.kind)
			case !bytes.Equal(tv.vec, vecs_[4*dims*i:4*dims*(i+1)]):
				t.Errorf("%s: memory %d vector differs from the table's", where, id)
			case math.Float32bits(ns[i]) != math.Float32bits(norm(vs[dims*i:dims*(i+1)])):
				t.Errorf("%s: memory %d norm %v, want %v", where, id, ns[i], norm(vs[dims*i:dims*(i+1)]))
			}
			seen[id] = true
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for id, tv := range want {
		if !seen[id] {
			t.Errorf("memory %d of (%q, %q, %d) is missing from the index", id, tv.userID, tv.embedder, tv.dims)
		}
	}
	checkCodes(t, db)
}

// checkCodes fails the test unless memory_codes holds exactly the blocks
// of memory_vectors, each quantized as encodeCodes does.
func checkCodes(t *testing.T, db *sql.DB) {
	t.Helper()
	ctx := context.Background()
	var missing, extra int
	if err := db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM memory_vectors v WHERE NOT EXISTS (SELECT 1 FROM memory_codes c
			WHERE c.user_id = v.user_id AND c.embedder = v.embedder AND c.dims = v.dims AND c.block = v.block)),
		(SELECT count(*) FROM memory_codes c WHERE NOT EXISTS (SELECT 1 FROM memory_vectors v
			WHERE c.user_id = v.user_id AND c.embedder = v.embedder AND c.dims = v.dims AND c.block = v.block))`).Scan(&missing, &extra); err != nil {
		t.Fatal(err)
	}
	if missing != 0 || extra != 0 {
		t.Errorf("memory_codes lacks %d blocks of memory_vectors and has %d it has not", missing, extra)
	}
	rows, err := db.QueryContext(ctx, `SELECT v.user_id, v.block, v.dims, v.count, c.count, v.ids, c.ids, v.types, c.types,
		v.norms, c.norms, v.vecs, c.bounds, c.codes
		FROM memory_vectors v JOIN memory_codes c USING (user_id, embedder, dims, block)`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			userID                          string
			block                           int64
			dims, count, codesCount         int
			ids, cids, kinds, ckinds, norms []byte
			cnorms, vecs, bounds, codes     []byte
		)
		if err := rows.Scan(&userID, &block, &dims, &count, &codesCount, &ids, &cids, &kinds, &ckinds, &norms, &cnorms,
			&vecs, &bounds, &codes); err != nil {
			t.Fatal(err)
		}
		wantBounds, wantCodes, err := encodeCodes(vecs, dims)
		if err != nil {
			t.Fatal(err)
		}
		if count != codesCount || !bytes.Equal(ids, cids) || !bytes.Equal(kinds, ckinds) || !bytes.Equal(norms, cnorms) ||
			!bytes.Equal(bounds, wantBounds) || !bytes.Equal(codes, wantCodes) {
			t.Errorf("codes of block %d of user %q differ from its vectors'", block, userID)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// reference searches by brute force over Memories, with the scoring of the
// store.
func reference(t *testing.T, s *Store, userID string, q nadine.MemoryQuery) []nadine.ScoredMemory {
	t.Helper()
	ms, err := s.Memories(context.Background(), userID, q.Types...)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Types) > 0 && kindMask(q.Types) == 0 {
		return nil
	}
	qn := float64(norm(q.Embedding))
	var out []nadine.ScoredMemory
	for _, m := range ms {
		if m.Embedder != q.Embedder || len(m.Embedding) != len(q.Embedding) {
			continue
		}
		var sc float64
		if n := norm(m.Embedding); qn > 0 && n > 0 {
			sc = float64(dot(q.Embedding, m.Embedding)) / (qn * float64(n))
		}
		out = append(out, nadine.ScoredMemory{Memory: m, Score: sc})
	}
	slices.SortFunc(out, func(a, b nadine.ScoredMemory) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out[:min(len(out), q.K)]
}

// searchIDs returns the ids and scores of a result, for comparisons.
func searchIDs(res []nadine.ScoredMemory) []string {
	var out []string
	for _, r := range res {
		out = append(out, fmt.Sprintf("%d:%v", r.ID, r.Score))
	}
	return out
}

// checkSearches compares, for every user and a set of queries, the results
// of the cached store, of the store without cache and of a brute-force
// search over the table.
func checkSearches(t *testing.T, cached, uncached *Store, users []string) {
	t.Helper()
	ctx := context.Background()
	queries := []nadine.MemoryQuery{
		{Embedding: vec(1, wideDims), Embedder: "e1", K: 5},
		{Embedding: vec(2, wideDims), Embedder: "e1", K: 100},
		{Embedding: vec(3, wideDims), Embedder: "e1", K: 3, Types: []nadine.MemoryType{nadine.MemoryEpisode}},
		{Embedding: vec(4, wideDims), Embedder: "e1", K: 4, Types: []nadine.MemoryType{nadine.MemoryFact, nadine.MemoryConversation}},
		{Embedding: vec(5, wideDims), Embedder: "e1", K: 4, Types: []nadine.MemoryType{"unknown"}},
		{Embedding: vec(6, 4), Embedder: "e1", K: 10},
		{Embedding: vec(7, 4), Embedder: "e2", K: 10},
		{Embedding: vec(8, wideDims), Embedder: "e2", K: 10},
		{Embedding: make([]float32, wideDims), Embedder: "e1", K: 2},
	}
	for _, u := range users {
		for qi, q := range queries {
			want := searchIDs(reference(t, cached, u, q))
			for _, s := range []*Store{cached, uncached} {
				res, err := s.SearchMemories(ctx, u, q)
				if err != nil {
					t.Fatal(err)
				}
				if got := searchIDs(res); !slices.Equal(got, want) {
					t.Errorf("user %q query %d (cache %v): got %v, want %v", u, qi, s.cache.enabled(), got, want)
				}
			}
		}
	}
}

// TestIndexFollowsWrites checks after every kind of write that the index
// holds exactly the table's vectors, and that searches with and without
// the cache agree with a brute-force search of the table.
func TestIndexFollowsWrites(t *testing.T) {
	t.Parallel() // its own stores in its own directories
	ctx := t.Context()
	s, uncached, _ := openPair(t, Options{Now: func() time.Time { return time.Unix(1_790_000_000, 0) }})
	users := []string{"alice", "bob", "carol"}
	types := []nadine.MemoryType{nadine.MemoryConversation, nadine.MemoryEpisode, nadine.MemoryFact}
	mem := func(user string, i, dims int, embedder string) nadine.Memory {
		return nadine.Memory{UserID: user, Type: types[i%3], Text: fmt.Sprintf("%s %d", user, i),
			Embedder: embedder, Embedding: vec(100+i, dims)}
	}
	var aliceIDs []int64

	steps := []struct {
		name string
		do   func(t *testing.T)
	}{
		{"add", func(t *testing.T) {
			for i := range 7 {
				id, err := s.AddMemory(ctx, mem("alice", i, wideDims, "e1"))
				if err != nil {
					t.Fatal(err)
				}
				aliceIDs = append(aliceIDs, id)
			}
			// Without a vector: stored, not indexed.
			if _, err := s.AddMemory(ctx, nadine.Memory{UserID: "alice", Type: nadine.MemoryFact, Text: "no vector"}); err != nil {
				t.Fatal(err)
			}
		}},
		{"batch add", func(t *testing.T) {
			var ms []nadine.Memory
			for i := range 40 {
				u := users[i%3]
				switch i % 4 {
				case 0, 1:
					ms = append(ms, mem(u, 10+i, wideDims, "e1"))
				case 2:
					ms = append(ms, mem(u, 10+i, 4, "e1"))
				case 3:
					ms = append(ms, mem(u, 10+i, 4, "e2"))
				}
			}
			ids, err := s.AddMemories(ctx, ms)
			if err != nil {
				t.Fatal(err)
			}
			for i, id := range ids {
				if ms[i].UserID == "alice" {
					aliceIDs = append(aliceIDs, id)
				}
			}
		}},
		{"store chunk", func(t *testing.T) {
			for i := range 3 {
				if _, err := s.AppendMessage(ctx, "bob", "c1", nadine.Message{Role: nadine.RoleUser, Content: "hi"}); err != nil {
					t.Fatal(err)
				}
				m := mem("bob", 60+i, wideDims, "e1")
				m.Type, m.UserID = nadine.MemoryConversation, ""
				if err := s.StoreChunk(ctx, "bob", "c1", i, m); err != nil {
					t.Fatal(err)
				}
			}
			// Stored before: nothing changes.
			if err := s.StoreChunk(ctx, "bob", "c1", 0, mem("bob", 70, wideDims, "e1")); err != nil {
				t.Fatal(err)
			}
		}},
		{"end conversation", func(t *testing.T) {
			final := mem("bob", 71, wideDims, "e1")
			final.UserID = ""
			if err := s.EndConversation(ctx, "bob", "c1", &final); err != nil {
				t.Fatal(err)
			}
			if err := s.EndConversation(ctx, "bob", "c1", &final); err != nil {
				t.Fatal(err)
			}
		}},
		{"update embedding in place", func(t *testing.T) {
			if err := s.UpdateMemoryEmbedding(ctx, "alice", aliceIDs[2], "e1", vec(900, wideDims)); err != nil {
				t.Fatal(err)
			}
		}},
		{"update embedding to another embedder and dimension", func(t *testing.T) {
			for _, id := range aliceIDs[:4] {
				if err := s.UpdateMemoryEmbedding(ctx, "alice", id, "e2", vec(int(id), 4)); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"update embedding to none and back", func(t *testing.T) {
			if err := s.UpdateMemoryEmbedding(ctx, "alice", aliceIDs[4], "e1", nil); err != nil {
				t.Fatal(err)
			}
			checkIndex(t, s.w)
			if err := s.UpdateMemoryEmbedding(ctx, "alice", aliceIDs[4], "e1", vec(901, wideDims)); err != nil {
				t.Fatal(err)
			}
		}},
		{"update embedding of another user's memory", func(t *testing.T) {
			err := s.UpdateMemoryEmbedding(ctx, "bob", aliceIDs[5], "e1", vec(902, wideDims))
			if nadine.ErrorCode(err) != nadine.ENOTFOUND {
				t.Fatalf("UpdateMemoryEmbedding of alice's memory as bob: %v, want ENOTFOUND", err)
			}
		}},
		{"delete memories", func(t *testing.T) {
			if err := s.DeleteMemories(ctx, "carol"); err != nil {
				t.Fatal(err)
			}
		}},
		{"forget user", func(t *testing.T) {
			if err := s.ForgetUser(ctx, "bob"); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			st.do(t)
			checkIndex(t, s.w)
			checkSearches(t, s, uncached, users)
		})
	}
	// The groups of alice span several blocks, and carol and bob have none.
	var blocks, others int
	if err := s.w.QueryRowContext(ctx, `SELECT count(*) FROM memory_vectors WHERE user_id = 'alice' AND dims = ?`,
		wideDims).Scan(&blocks); err != nil {
		t.Fatal(err)
	}
	if err := s.w.QueryRowContext(ctx, `SELECT count(*) FROM memory_vectors WHERE user_id <> 'alice'`).Scan(&others); err != nil {
		t.Fatal(err)
	}
	if blocks < 2 || others != 0 {
		t.Errorf("alice has %d blocks of %d dims, others %d blocks; want several and none", blocks, wideDims, others)
	}
}

// oldSchema creates at path a database of schema 1 (before the vector
// index), as the previous release left it.
func oldSchema(t *testing.T, path string) *sql.DB {
	t.Helper()
	ms, err := migrations.Load(migrationFS, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	if ms[0].Version != 1 {
		t.Fatalf("first migration is %s", ms[0].Name)
	}
	db, err := sql.Open("sqlite", path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		ms[0].SQL,
		`CREATE TABLE schema_version (version INTEGER NOT NULL)`,
		`INSERT INTO schema_version (version) VALUES (1)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// reopen closes the database written by the test and opens it with Open,
// which migrates it; the store is closed at the end of the test.
func reopen(t *testing.T, db *sql.DB, path string) *Store {
	t.Helper()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(t.Context(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestMigrationBuildsIndex(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "nadine.db")
	db := oldSchema(t, path)
	insert := func(user, typ, embedder string, v []float32) {
		t.Helper()
		if _, err := db.Exec(`INSERT INTO memories (user_id, type, text, embedder, dims, embedding)
			VALUES (?, ?, ?, ?, ?, ?)`, user, typ, user+" memory", embedder, len(v), records.EncodeVector(v)); err != nil {
			t.Fatal(err)
		}
	}
	types := []string{"conversation", "episode", "fact"}
	for i := range 30 {
		insert([]string{"alice", "bob"}[i%2], types[i%3], "e1", vec(i, wideDims))
	}
	insert("alice", "fact", "e2", vec(50, 4))
	insert("alice", "fact", "", nil) // no vector
	insert("carol", "episode", "e1", vec(51, wideDims))
	// A vector of a length no float32 vector has: left out of the index.
	if _, err := db.Exec(`INSERT INTO memories (user_id, type, text, embedder, dims, embedding)
		VALUES ('dave', 'fact', 'broken', 'e1', 1, x'010203')`); err != nil {
		t.Fatal(err)
	}
	s := reopen(t, db, path)
	var version int
	if err := s.w.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&version); err != nil || version != SchemaVersion() {
		t.Fatalf("schema version = %d, %v; want %d (every migration applied)", version, err, SchemaVersion())
	}
	checkIndex(t, s.w)
	var n int
	if err := s.w.QueryRowContext(ctx, `SELECT coalesce(sum(count), 0) FROM memory_vectors`).Scan(&n); err != nil || n != 32 {
		t.Errorf("index holds %d vectors, %v; want 32", n, err)
	}
	uncached := openExact(t, path)
	checkSearches(t, s, uncached, []string{"alice", "bob", "carol"})
	for _, st := range []*Store{s, uncached} {
		res, err := st.SearchMemories(ctx, "dave", nadine.MemoryQuery{Embedding: []float32{1}, Embedder: "e1", K: 1})
		if err != nil || len(res) != 0 {
			t.Errorf("search of a user with only a broken vector = %v, %v; want nothing", res, err)
		}
	}

	// The migrated index follows later writes.
	if _, err := s.AddMemory(ctx, nadine.Memory{UserID: "alice", Type: nadine.MemoryFact, Text: "new",
		Embedder: "e1", Embedding: vec(60, wideDims)}); err != nil {
		t.Fatal(err)
	}
	checkIndex(t, s.w)
	checkSearches(t, s, uncached, []string{"alice"})
}

func TestReaderMmap(t *testing.T) {
	byDefault := "0"
	if strconv.IntSize == 64 {
		byDefault = "1073741824"
	}
	tests := []struct {
		size int64
		want string
	}{
		{0, byDefault},
		{1 << 20, "1048576"},
		{-1, "0"},
	}
	for _, tt := range tests {
		s, err := Open(t.Context(), filepath.Join(t.TempDir(), "nadine.db"), Options{MmapSize: tt.size})
		if err != nil {
			t.Fatal(err)
		}
		var got, writer string
		if err := s.r.QueryRowContext(t.Context(), "PRAGMA mmap_size").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if err := s.w.QueryRowContext(t.Context(), "PRAGMA mmap_size").Scan(&writer); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if got != tt.want || writer != "0" {
			t.Errorf("MmapSize %d: reader mmap_size %s, writer %s; want %s and 0", tt.size, got, writer, tt.want)
		}
	}
}

func TestVectorCacheSharesLoads(t *testing.T) {
	ctx := t.Context()
	c := newVectorCache(4 * emptySetBytes)
	var loads atomic.Int32
	release := make(chan struct{})
	started := make(chan struct{}, 10)
	slow := func() (*vecSet, error) {
		loads.Add(1)
		started <- struct{}{}
		<-release
		return &vecSet{}, nil
	}

	// Misses that arrive while a load is in flight wait for it.
	var wg sync.WaitGroup
	sets := make([]*vecSet, 3)
	wg.Go(func() { sets[0], _ = c.get(ctx, "k", slow) })
	<-started
	for i := 1; i < 3; i++ {
		wg.Go(func() { sets[i], _ = c.get(ctx, "k", slow) })
	}
	waitFor(t, func() bool { return waiters(c, "k") == 2 })
	close(release)
	wg.Wait()
	if loads.Load() != 1 || sets[0] == nil || sets[1] != sets[0] || sets[2] != sets[0] {
		t.Errorf("3 concurrent misses: %d loads, sets %p %p %p; want 1 load shared", loads.Load(), sets[0], sets[1], sets[2])
	}

	// A miss after an invalidation does not join the load it overtook.
	release = make(chan struct{})
	loads.Store(0)
	wg.Go(func() { _, _ = c.get(ctx, "j", slow) })
	<-started
	c.invalidate("j")
	fresh := &vecSet{}
	got, err := c.get(ctx, "j", func() (*vecSet, error) { return fresh, nil })
	if err != nil || got != fresh {
		t.Errorf("miss after an invalidation got %p, %v; want its own load", got, err)
	}
	close(release)
	wg.Wait()

	// A joiner whose leader failed loads for itself; one whose context
	// ends stops waiting.
	release = make(chan struct{})
	failing := func() (*vecSet, error) { started <- struct{}{}; <-release; return nil, context.Canceled }
	wg.Go(func() { _, _ = c.get(ctx, "f", failing) })
	<-started
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.get(cctx, "f", slow); err != context.Canceled {
		t.Errorf("joiner with an ended context: %v, want context.Canceled", err)
	}
	own := &vecSet{}
	done := make(chan *vecSet)
	go func() {
		set, _ := c.get(ctx, "f", func() (*vecSet, error) { return own, nil })
		done <- set
	}()
	waitFor(t, func() bool { return waiters(c, "f") == 2 })
	close(release)
	if got := <-done; got != own {
		t.Errorf("joiner of a failed load got %p, want its own load %p", got, own)
	}
	wg.Wait()
}

func TestVectorCacheLoadPanics(t *testing.T) {
	ctx := t.Context()
	c := newVectorCache(4 * emptySetBytes)
	release := make(chan struct{})
	started := make(chan struct{})
	panicked := make(chan any)
	go func() {
		defer func() { panicked <- recover() }()
		_, _ = c.get(ctx, "p", func() (*vecSet, error) { close(started); <-release; panic("boom") })
	}()
	<-started
	joined := make(chan *vecSet)
	own := &vecSet{}
	go func() {
		set, _ := c.get(ctx, "p", func() (*vecSet, error) { return own, nil })
		joined <- set
	}()
	waitFor(t, func() bool { return waiters(c, "p") == 1 })
	close(release)
	if p := <-panicked; p != "boom" {
		t.Fatalf("recovered %v, want boom", p)
	}
	if got := <-joined; got != own {
		t.Errorf("joiner of a load that panicked got %p, want its own load %p", got, own)
	}
	// The key is not stuck: the next miss loads and caches.
	next := &vecSet{}
	if got, err := c.get(ctx, "p", func() (*vecSet, error) { return next, nil }); err != nil || got != next {
		t.Errorf("miss after a panicked load = %p, %v; want %p", got, err, next)
	}
	if got, _ := c.get(ctx, "p", func() (*vecSet, error) { return nil, nil }); got != next {
		t.Errorf("hit after a panicked load = %p, want the cached %p", got, next)
	}
}

// waiters returns how many callers joined the load of key in flight.
func waiters(c *vectorCache, key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if l := c.loading[key]; l != nil {
		return l.waiters
	}
	return -1
}

// waitFor polls cond for up to 5 seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 500 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("condition not reached")
}

// openPair opens a store with opts on a new file and a store without
// cache on the same file (the exact reference), both closed at the end of
// the test.
func openPair(t *testing.T, opts Options) (s, exact *Store, path string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "nadine.db")
	var err error
	if s, err = Open(t.Context(), path, opts); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, openExact(t, path), path
}

// openExact opens a store without cache on the file at path (the exact
// reference), closed at the end of the test.
func openExact(t *testing.T, path string) *Store {
	t.Helper()
	exact, err := Open(t.Context(), path, Options{CacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { exact.Close() })
	return exact
}

// addVectors stores n memories of user of type typ (embedder e1), memory i
// with the text i and the vector vec(i, dims).
func addVectors(t *testing.T, s *Store, user string, typ nadine.MemoryType, n, dims int) {
	t.Helper()
	ms := make([]nadine.Memory, n)
	for i := range ms {
		ms[i] = nadine.Memory{UserID: user, Type: typ, Text: fmt.Sprint(i), Embedder: "e1", Embedding: vec(i, dims)}
	}
	if _, err := s.AddMemories(t.Context(), ms); err != nil {
		t.Fatal(err)
	}
}

// TestMigrationQuantizesIndex: a database of schema 3 (the vector index
// without its codes) gets the codes of every block when it is opened.
func TestMigrationQuantizesIndex(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "nadine.db")
	s, err := Open(ctx, path, Options{QuantizeAbove: 1})
	if err != nil {
		t.Fatal(err)
	}
	var ms []nadine.Memory
	for i := range 200 {
		ms = append(ms, nadine.Memory{UserID: []string{"alice", "bob"}[i%2], Type: nadine.MemoryFact, Text: fmt.Sprint(i),
			Embedder: "e1", Embedding: vec(i, 16+i%2)})
	}
	if _, err := s.AddMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, `DROP TABLE memory_codes; UPDATE schema_version SET version = 3`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(ctx, path, Options{QuantizeAbove: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkIndex(t, s.w)
	var n int
	if err := s.w.QueryRowContext(ctx, `SELECT coalesce(sum(count), 0) FROM memory_codes`).Scan(&n); err != nil || n != 200 {
		t.Errorf("memory_codes holds %d vectors, %v; want 200", n, err)
	}
	uncached := openExact(t, path)
	checkSearches(t, s, uncached, []string{"alice", "bob"})
}

// TestQuantizedLoadAllocates: loading a large person's vectors quantized
// allocates the set and the driver's copies of its rows, no float32
// values: at most 2.5 times the set's bytes per vector (decoding 768
// float32 values per vector, as the load did, was 3 KB more each).
func TestQuantizedLoadAllocates(t *testing.T) {
	ctx := t.Context()
	s, _, _ := openPair(t, Options{QuantizeAbove: 1})
	const n, dims = 3000, 768
	addVectors(t, s, "robin", nadine.MemoryEpisode, n, dims)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	set, err := s.loadVectors(ctx, "robin")
	runtime.ReadMemStats(&after)
	if err != nil || !set.quantized || set.entries() != n {
		t.Fatalf("load: %v, %d entries", err, set.entries())
	}
	perVector := float64(after.TotalAlloc-before.TotalAlloc) / n
	if kept := float64(set.bytes()) / n; perVector > 2.5*kept {
		t.Errorf("the load allocated %.0f bytes per vector, the set keeps %.0f; want at most 2.5 times", perVector, kept)
	}
	t.Logf("%.0f bytes allocated per vector of %d dimensions, %.0f kept", perVector, dims, float64(set.bytes())/n)
}

// TestCacheFollowsAppends: memories added to a person whose vectors are
// cached (AddMemories, StoreChunk, EndConversation) are added to the cached
// set instead of dropping it, so that the next search does not reload the
// person; the searches then agree with a store without cache, entry for
// entry, quantized or not, across embedders and dimensions.
func TestCacheFollowsAppends(t *testing.T) {
	t.Parallel() // its own stores in its own directories
	for _, tt := range []struct {
		name     string
		quantize int64
	}{{"exact", -1}, {"quantized", 1}} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			s, exact, _ := openPair(t, Options{QuantizeAbove: tt.quantize})
			const dims = 8
			types := []nadine.MemoryType{nadine.MemoryConversation, nadine.MemoryEpisode, nadine.MemoryFact}
			memory := func(i int, embedder string, d int) nadine.Memory {
				return nadine.Memory{UserID: "robin", Type: types[i%3], Text: fmt.Sprint("m", i), Embedder: embedder, Embedding: vec(i, d)}
			}
			var first []nadine.Memory
			for i := range 3*blockEntries(dims) - 5 { // the last block has room for 5
				first = append(first, memory(i, "e1", dims))
			}
			if _, err := s.AddMemories(ctx, first); err != nil {
				t.Fatal(err)
			}
			set, err := s.userVectors(ctx, "robin")
			if err != nil || set.quantized != (tt.quantize > 0) {
				t.Fatalf("robin's set: %v, quantized %v", err, set != nil && set.quantized)
			}
			loaded := s.cache.sets[userKey("robin")].loaded

			// A batch that fills the last block and opens another, one of
			// another embedder and dimension, one without vectors, and
			// the conversation chunks.
			var batch []nadine.Memory
			for i := range 12 {
				batch = append(batch, memory(1000+i, "e1", dims))
			}
			batch = append(batch, memory(2000, "e2", 3), nadine.Memory{UserID: "robin", Type: nadine.MemoryFact, Text: "no vector"})
			if _, err := s.AddMemories(ctx, batch); err != nil {
				t.Fatal(err)
			}
			if _, err := s.AddMemory(ctx, memory(3000, "e1", dims)); err != nil {
				t.Fatal(err)
			}
			if _, err := s.AppendMessage(ctx, "robin", "c1", nadine.Message{Role: nadine.RoleUser, Content: "hello", Time: 1}); err != nil {
				t.Fatal(err)
			}
			chunk := memory(4000, "e1", dims)
			chunk.Type = nadine.MemoryConversation
			if err := s.StoreChunk(ctx, "robin", "c1", 0, chunk); err != nil {
				t.Fatal(err)
			}
			if err := s.StoreChunk(ctx, "robin", "c1", 0, chunk); err != nil { // stored before: nothing happens
				t.Fatal(err)
			}
			final := memory(4001, "e1", dims)
			final.Type = nadine.MemoryConversation
			if err := s.EndConversation(ctx, "robin", "c1", &final); err != nil {
				t.Fatal(err)
			}

			it := s.cache.sets[userKey("robin")]
			if it == nil || it.loaded != loaded {
				t.Fatalf("robin's set was dropped or reloaded by the appends (item %v)", it)
			}
			if got, want := it.set.entries(), len(first)+12+1+1+2; got != want {
				t.Errorf("cached set has %d entries, want %d", got, want)
			}
			if got := set.entries(); got != len(first) {
				t.Errorf("the set searches held changed: %d entries, want %d", got, len(first))
			}
			if it.bytes != it.set.bytes() || s.cache.used() != it.bytes {
				t.Errorf("cache counts %d bytes (item %d), set has %d", s.cache.used(), it.bytes, it.set.bytes())
			}
			CheckIndex(t, s)
			for qi := range 40 {
				for _, q := range []nadine.MemoryQuery{
					{Embedding: vec(5000+qi, dims), Embedder: "e1", K: 1 + qi%7},
					{Embedding: vec(1000+qi%12, dims), Embedder: "e1", K: 3, Types: []nadine.MemoryType{types[qi%3]}},
					{Embedding: vec(2000, 3), Embedder: "e2", K: 2},
				} {
					got, err := s.SearchMemories(ctx, "robin", q)
					if err != nil {
						t.Fatal(err)
					}
					want, err := exact.SearchMemories(ctx, "robin", q)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.EqualFunc(got, want, func(a, b nadine.ScoredMemory) bool {
						return a.ID == b.ID && a.Text == b.Text && math.Float64bits(a.Score) == math.Float64bits(b.Score)
					}) {
						t.Fatalf("query %d %+v: got %v, want %v", qi, q.Types, got, want)
					}
				}
			}
		})
	}
}

// TestCacheAppendAfterLoad: a write marked before a load ended may be in
// the loaded set already, so its append drops the set instead of adding
// the rows twice; a load in flight during the write is not cached.
func TestCacheAppendAfterLoad(t *testing.T) {
	ctx := t.Context()
	c := newVectorCache(1 << 20)
	grow := func(s *vecSet) *vecSet {
		return s.appended([]vecEntry{{id: 9, embedder: "e", norm: 1, vec: []float32{1, 0}}})
	}
	mark := c.mark()
	if _, err := c.get(ctx, "k", func() (*vecSet, error) { return &vecSet{}, nil }); err != nil {
		t.Fatal(err)
	}
	c.appendTo("k", mark, grow)
	if c.len() != 0 {
		t.Error("a write marked before the load ended was added to the loaded set")
	}

	if _, err := c.get(ctx, "k", func() (*vecSet, error) { return &vecSet{}, nil }); err != nil {
		t.Fatal(err)
	}
	c.appendTo("k", c.mark(), grow)
	got, _ := c.get(ctx, "k", func() (*vecSet, error) { t.Error("reloaded"); return nil, nil })
	if got == nil || got.entries() != 1 {
		t.Errorf("a write after the load: set %v, want its one vector added", got)
	}

	release, started := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = c.get(ctx, "j", func() (*vecSet, error) { close(started); <-release; return &vecSet{}, nil })
	}()
	<-started
	c.appendTo("j", c.mark(), grow)
	close(release)
	<-done
	if _, ok := c.sets["j"]; ok {
		t.Error("a load in flight during a write was cached")
	}
}

// TestCodeMemoryOutlivesItsSet: a quantized set's codes live outside the
// heap while a block cut from them is reachable: a set grown from a loaded
// one and the searches that use it keep reading them after the loaded set
// is gone and collected.
func TestCodeMemoryOutlivesItsSet(t *testing.T) {
	ctx := t.Context()
	s, exact, _ := openPair(t, Options{QuantizeAbove: 1})
	addVectors(t, s, "robin", nadine.MemoryEpisode, 500, 64)
	set, err := s.userVectors(ctx, "robin")
	if err != nil || set.blocks[0].mem == nil {
		t.Fatalf("loaded set: %v, its codes not cut from a codeMemory", err)
	}
	set = nil
	if _, err := s.AddMemory(ctx, nadine.Memory{UserID: "robin", Type: nadine.MemoryFact, Text: "new", Embedder: "e1", Embedding: vec(1000, 64)}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		runtime.GC() // the loaded set is unreachable: only the grown one's blocks hold the codes
	}
	for i := range 20 {
		q := nadine.MemoryQuery{Embedding: vec(2000+i, 64), Embedder: "e1", K: 3}
		got, err := s.SearchMemories(ctx, "robin", q)
		if err != nil {
			t.Fatal(err)
		}
		want, err := exact.SearchMemories(ctx, "robin", q)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(got, want, func(a, b nadine.ScoredMemory) bool { return a.ID == b.ID && a.Score == b.Score }) {
			t.Fatalf("query %d: got %v, want %v", i, got, want)
		}
		runtime.GC()
	}
}

// TestWarmMemories: warming a person loads their vectors in the
// background, once however often they are recognized, and their next
// search uses that set; a store without cache does nothing; Close stops a
// warm load in flight and waits for it.
func TestWarmMemories(t *testing.T) {
	ctx := t.Context()
	s, none, path := openPair(t, Options{QuantizeAbove: 1})
	addVectors(t, s, "robin", nadine.MemoryEpisode, 300, 32)
	s.WarmMemories("robin")
	s.WarmMemories("robin") // recognized again: cached or loading, nothing more
	waitFor(t, func() bool { return s.cache.len() == 1 })
	warmed := s.cache.sets[userKey("robin")]
	s.WarmMemories("robin")
	if _, err := s.SearchMemories(ctx, "robin", nadine.MemoryQuery{Embedding: vec(7, 32), Embedder: "e1", K: 2}); err != nil {
		t.Fatal(err)
	}
	if it := s.cache.sets[userKey("robin")]; it != warmed || !it.set.quantized || it.set.entries() != 300 {
		t.Errorf("after the search the cache holds %+v, want the warmed set of 300 vectors", it)
	}
	s.WarmMemories("")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s.WarmMemories("robin") // after Close: nothing

	none.WarmMemories("robin") // no cache: nothing
	if none.cache.len() != 0 || none.cache.holds(userKey("robin")) {
		t.Error("a store without cache warmed a person")
	}

	// Close during warm loads of several people: each is stopped or
	// finished before Close returns (-race sees the rest).
	busy, err := Open(ctx, path, Options{QuantizeAbove: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		busy.WarmMemories(fmt.Sprint("robin", i))
	}
	busy.WarmMemories("robin")
	if err := busy.Close(); err != nil {
		t.Fatal(err)
	}
	busy.warmMu.Lock()
	defer busy.warmMu.Unlock()
	if busy.cache.holds(userKey("robin")) && busy.cache.loading[userKey("robin")] != nil {
		t.Error("a warm load is still in flight after Close")
	}
}

// TestSetBytesEstimate: the size WarmMemories expects of a person's set,
// from the index's counts, is the loaded set's, within the embedder names
// it leaves out, quantized or not.
func TestSetBytesEstimate(t *testing.T) {
	for _, quantize := range []int64{-1, 1} {
		s, _, _ := openPair(t, Options{QuantizeAbove: quantize})
		addVectors(t, s, "robin", nadine.MemoryEpisode, 700, 48)
		addVectors(t, s, "robin", nadine.MemoryFact, 30, 5)
		n, err := s.vectorCount(t.Context(), "robin")
		if err != nil {
			t.Fatal(err)
		}
		set, err := s.loadVectors(t.Context(), "robin")
		if err != nil {
			t.Fatal(err)
		}
		if est, got := s.setBytes(n), set.bytes(); got < est || got > est+64*n.blocks {
			t.Errorf("QuantizeAbove %d: estimated %d bytes, the set has %d (%d blocks)", quantize, est, got, n.blocks)
		}
	}
}
