package sqlite

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"sync"
)

// encodeVector returns v as float32 little-endian bytes, nil for an empty v.
func encodeVector(v []float32) []byte {
	if len(v) == 0 {
		return nil
	}
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// decodeVector decodes float32 little-endian bytes into dst (reused when
// large enough) and returns it.
func decodeVector(b []byte, dst []float32) ([]float32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("vector blob of %d bytes is not a multiple of 4", len(b))
	}
	n := len(b) / 4
	if cap(dst) < n {
		dst = make([]float32, n)
	}
	dst = dst[:n]
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b))
		b = b[4:]
	}
	return dst, nil
}

// dot returns the dot product of a and the first len(a) values of b. The
// loop takes eight values at a time with independent sums, without bounds
// checks inside.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	for len(a) >= 8 && len(b) >= 8 {
		s0 += a[0] * b[0]
		s1 += a[1] * b[1]
		s2 += a[2] * b[2]
		s3 += a[3] * b[3]
		s4 += a[4] * b[4]
		s5 += a[5] * b[5]
		s6 += a[6] * b[6]
		s7 += a[7] * b[7]
		a, b = a[8:], b[8:]
	}
	for i := range a {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3) + (s4 + s5) + (s6 + s7)
}

// norm returns the Euclidean norm of v.
func norm(v []float32) float32 {
	return float32(math.Sqrt(float64(dot(v, v))))
}

// vecEntry is one stored vector, ready for scoring.
type vecEntry struct {
	id       int64
	kind     string // memory type; empty for knowledge
	embedder string
	vec      []float32
	norm     float32
}

// vecSet is an immutable set of vectors (one user's memories, or the
// knowledge base). Searches share it without locking.
type vecSet struct {
	entries []vecEntry
}

// scored is an id with its similarity.
type scored struct {
	id    int64
	score float64
}

// topK returns the k entries most similar to q among those accepted by keep
// whose embedder is embedder and whose dimension is len(q), best first
// (ties: lower id first). Zero vectors score 0.
func (s *vecSet) topK(q []float32, embedder string, k int, keep func(*vecEntry) bool) []scored {
	if k <= 0 || len(q) == 0 {
		return nil
	}
	qn := norm(q)
	best := make([]scored, 0, k+1)
	for i := range s.entries {
		e := &s.entries[i]
		if e.embedder != embedder || len(e.vec) != len(q) || (keep != nil && !keep(e)) {
			continue
		}
		var sc float64
		if qn > 0 && e.norm > 0 {
			sc = float64(dot(q, e.vec)) / (float64(qn) * float64(e.norm))
		}
		if len(best) == k && !better(scored{e.id, sc}, best[k-1]) {
			continue
		}
		j := sort.Search(len(best), func(j int) bool { return better(scored{e.id, sc}, best[j]) })
		best = append(best, scored{})
		copy(best[j+1:], best[j:])
		best[j] = scored{e.id, sc}
		if len(best) > k {
			best = best[:k]
		}
	}
	return best
}

// better orders results by score, then by id.
func better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.id < b.id
}

// vectorCache keeps vector sets by key ("u:<user id>" or "knowledge"),
// dropping the least recently used beyond its limit. A key is invalidated
// after every committed write that touches it; a load that overlapped an
// invalidation is not cached, so the cache never serves a stale set.
type vectorCache struct {
	mu      sync.Mutex
	limit   int // <= 0 disables caching
	tick    uint64
	sets    map[string]*cacheItem
	loading map[string]*cacheLoad
}

type cacheItem struct {
	set  *vecSet
	used uint64
}

type cacheLoad struct {
	n     int  // loads in flight for the key
	stale bool // an invalidation happened during the loads
}

func newVectorCache(limit int) *vectorCache {
	return &vectorCache{limit: limit, sets: map[string]*cacheItem{}, loading: map[string]*cacheLoad{}}
}

// get returns the cached set for key, or calls load and caches its result.
func (c *vectorCache) get(key string, load func() (*vecSet, error)) (*vecSet, error) {
	if c.limit <= 0 {
		return load()
	}
	c.mu.Lock()
	c.tick++
	if it, ok := c.sets[key]; ok {
		it.used = c.tick
		c.mu.Unlock()
		return it.set, nil
	}
	l := c.loading[key]
	if l == nil {
		l = &cacheLoad{}
		c.loading[key] = l
	}
	l.n++
	c.mu.Unlock()

	set, err := load()

	c.mu.Lock()
	defer c.mu.Unlock()
	l.n--
	if l.n == 0 {
		delete(c.loading, key)
	}
	if err != nil || l.stale {
		return set, err
	}
	if len(c.sets) >= c.limit {
		c.evictLocked()
	}
	c.tick++
	c.sets[key] = &cacheItem{set: set, used: c.tick}
	return set, nil
}

// evictLocked drops the least recently used set.
func (c *vectorCache) evictLocked() {
	var oldest string
	var used uint64 = math.MaxUint64
	for k, it := range c.sets {
		if it.used < used {
			oldest, used = k, it.used
		}
	}
	delete(c.sets, oldest)
}

// invalidate drops key's set and marks loads in flight as stale. Call it
// after the write that changed key's rows has committed (or failed).
func (c *vectorCache) invalidate(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.sets, key)
	if l := c.loading[key]; l != nil {
		l.stale = true
	}
}

// len returns how many sets are cached.
func (c *vectorCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.sets)
}

func userKey(userID string) string { return "u:" + userID }

const knowledgeKey = "knowledge"
