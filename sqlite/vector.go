package sqlite

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"unsafe"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

// floatView avoids a copy when host layout and b's alignment allow (the view
// is valid as long as b is); else it decodes into *scratch.
func floatView(b []byte, scratch *[]float32) ([]float32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("vector blob of %d bytes is not a multiple of 4", len(b))
	}
	if len(b) > 0 && records.HostLittleEndian() && uintptr(unsafe.Pointer(unsafe.SliceData(b)))%4 == 0 {
		return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/4), nil
	}
	v, err := records.DecodeVector(b, *scratch)
	if err == nil {
		*scratch = v
	}
	return v, err
}

// dot takes eight values at a time with independent sums and no bounds checks
// inside the loop.
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

// Kind codes of the memory types in a vector block; knowledge is kind 0.
const (
	kindNone         uint8 = 0
	kindConversation uint8 = 1
	kindEpisode      uint8 = 2
	kindFact         uint8 = 3
)

// kindCode returns the kind code of a memory type, 0 for an unknown one.
func kindCode(t nadine.MemoryType) uint8 {
	switch t {
	case nadine.MemoryConversation:
		return kindConversation
	case nadine.MemoryEpisode:
		return kindEpisode
	case nadine.MemoryFact:
		return kindFact
	}
	return kindNone
}

// allKinds is the kind mask that accepts every kind.
const allKinds = ^uint8(0)

// kindMask returns the mask of bits 1<<kind accepted by a filter on types:
// allKinds when there is no filter, 0 when no given type is known.
func kindMask(types []nadine.MemoryType) uint8 {
	if len(types) == 0 {
		return allKinds
	}
	var m uint8
	for _, t := range types {
		if c := kindCode(t); c != kindNone {
			m |= 1 << c
		}
	}
	return m
}

// vecBlock entry i is ids[i], kinds[i], norms[i] and vecs[i*dims:(i+1)*dims];
// a quantized block has q8 in steps of scale[i] instead, bounded by resid and ratio.
type vecBlock struct {
	embedder string
	dims     int
	ids      []int64
	kinds    []uint8
	norms    []float32
	vecs     []float32

	q8           []int8
	scale        []float32
	resid, ratio []float32
	mem          *codeMemory // the memory q8 is cut from, when it is not the heap's
}

// codeMemory may lie outside the Go heap and stays valid while reachable, so
// every block cut from it holds it.
type codeMemory struct {
	b []byte
}

// vecSet is immutable so searches share it without locking; a quantized set
// gives candidates, an exact one the result.
type vecSet struct {
	blocks    []vecBlock
	quantized bool
}

// entries returns how many vectors the set holds.
func (s *vecSet) entries() int {
	n := 0
	for i := range s.blocks {
		n += len(s.blocks[i].ids)
	}
	return n
}

// bytes returns the memory the set's arrays take, for the cache's budget.
func (s *vecSet) bytes() int64 {
	var n int64
	for i := range s.blocks {
		b := &s.blocks[i]
		n += int64(8*cap(b.ids) + cap(b.kinds) + 4*cap(b.norms) + 4*cap(b.vecs) +
			cap(b.q8) + 4*cap(b.scale) + 4*cap(b.resid) + 4*cap(b.ratio) + len(b.embedder) + 160)
	}
	return n + emptySetBytes
}

// emptySetBytes is what bytes counts for a set without blocks.
const emptySetBytes = 64

// setBuilder packs at most blockEntries per block, per embedder and dimension.
type setBuilder struct {
	set  vecSet
	open map[groupKey]int // index in set.blocks of the block being filled
}

type groupKey struct {
	embedder string
	dims     int
}

// add appends a copy of vector v to the set.
func (b *setBuilder) add(id int64, kind uint8, embedder string, v []float32) {
	if b.open == nil {
		b.open = map[groupKey]int{}
	}
	key := groupKey{embedder, len(v)}
	i, ok := b.open[key]
	if !ok || len(b.set.blocks[i].ids) >= blockEntries(len(v)) {
		b.set.blocks = append(b.set.blocks, vecBlock{embedder: embedder, dims: len(v)})
		i = len(b.set.blocks) - 1
		b.open[key] = i
	}
	blk := &b.set.blocks[i]
	blk.ids = append(blk.ids, id)
	blk.kinds = append(blk.kinds, kind)
	blk.norms = append(blk.norms, norm(v))
	blk.vecs = append(blk.vecs, v...)
}

// vecEntry is one vector to add to a set.
type vecEntry struct {
	id       int64
	kind     uint8
	embedder string
	norm     float32
	vec      []float32
}

// appended leaves s unchanged for concurrent searches and copies at most the
// last block, so a write of one memory copies at most one block.
func (s *vecSet) appended(es []vecEntry) *vecSet {
	out := &vecSet{blocks: slices.Grow(slices.Clone(s.blocks), 1), quantized: s.quantized}
	owned := -1 // the block of out that is out's own, not s's
	for _, e := range es {
		d, last := len(e.vec), len(out.blocks)-1
		if last < 0 || out.blocks[last].embedder != e.embedder || out.blocks[last].dims != d ||
			len(out.blocks[last].ids) >= blockEntries(d) {
			out.blocks = append(out.blocks, vecBlock{embedder: e.embedder, dims: d})
			last, owned = last+1, last+1
		}
		b := &out.blocks[last]
		if owned != last {
			*b = b.clone()
			owned = last
		}
		b.ids = append(b.ids, e.id)
		b.kinds = append(b.kinds, e.kind)
		b.norms = append(b.norms, e.norm)
		if !s.quantized {
			b.vecs = append(b.vecs, e.vec...)
			continue
		}
		var scale, resid, ratio float32
		b.q8, scale, resid, ratio = quantizeVector(b.q8, e.vec)
		b.scale, b.resid, b.ratio = append(b.scale, scale), append(b.resid, resid), append(b.ratio, ratio)
	}
	return out
}

// clone returns a copy of b that shares no array with it, on the heap.
func (b vecBlock) clone() vecBlock {
	b.ids, b.kinds, b.norms, b.vecs = slices.Clone(b.ids), slices.Clone(b.kinds), slices.Clone(b.norms), slices.Clone(b.vecs)
	b.q8, b.scale, b.resid, b.ratio = slices.Clone(b.q8), slices.Clone(b.scale), slices.Clone(b.resid), slices.Clone(b.ratio)
	b.mem = nil
	return b
}

// scored is an id with its similarity.
type scored struct {
	id    int64
	score float64
}

// topK filters by embedder, dimension and kinds' bit 1<<kind; ties go to the
// lower id, zero vectors score 0.
func (s *vecSet) topK(q []float32, embedder string, k int, kinds uint8) []scored {
	sr := newSearch(q, k, kinds)
	for bi := range s.blocks {
		if blk := &s.blocks[bi]; blk.embedder == embedder {
			sr.add(blk)
		}
	}
	return sr.result()
}

// search keeps the k best in a bounded heap and allocates nothing per entry.
type search struct {
	q     []float32
	qn    float64
	k     int
	kinds uint8
	best  topHeap
}

func newSearch(q []float32, k int, kinds uint8) *search {
	return &search{q: q, qn: float64(norm(q)), k: k, kinds: kinds, best: make(topHeap, 0, min(max(k, 0), 64))}
}

// add skips blocks of another dimension; the caller checks the embedder.
func (sr *search) add(blk *vecBlock) {
	if sr.k <= 0 || len(sr.q) == 0 || sr.kinds == 0 || blk.dims != len(sr.q) {
		return
	}
	d := blk.dims
	for i, id := range blk.ids {
		if sr.kinds&(1<<blk.kinds[i]) == 0 {
			continue
		}
		sr.best.offer(scored{id, cosineScore(sr.q, sr.qn, blk.vecs[i*d:(i+1)*d], blk.norms[i])}, sr.k)
	}
}

// cosineScore is the one exact score, for exact searches and quantized
// candidates alike, so that they agree to the bit.
func cosineScore(q []float32, qn float64, v []float32, n float32) float64 {
	if qn > 0 && n > 0 {
		return float64(dot(q, v)) / (qn * float64(n))
	}
	return 0
}

// result returns the best entries, best first.
func (sr *search) result() []scored {
	if len(sr.best) == 0 {
		return nil
	}
	slices.SortFunc(sr.best, func(a, b scored) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	return sr.best
}

// better orders results by score, then by id.
func better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.id < b.id
}

// topHeap's root is the worst of the best results, the one to replace.
type topHeap []scored

// offer adds c when fewer than k results are kept or c beats the worst.
func (h *topHeap) offer(c scored, k int) {
	s := *h
	if len(s) < k {
		s = append(s, c)
		// Sift up: a worse result moves toward the root.
		for i := len(s) - 1; i > 0; {
			p := (i - 1) / 2
			if !better(s[p], s[i]) {
				break
			}
			s[p], s[i] = s[i], s[p]
			i = p
		}
		*h = s
		return
	}
	if !better(c, s[0]) {
		return
	}
	s[0] = c
	// Sift down: the root goes below any worse child.
	for i := 0; ; {
		w, l, r := i, 2*i+1, 2*i+2
		if l < len(s) && better(s[w], s[l]) {
			w = l
		}
		if r < len(s) && better(s[w], s[r]) {
			w = r
		}
		if w == i {
			return
		}
		s[i], s[w] = s[w], s[i]
		i = w
	}
}

// vectorCache is LRU in bytes. A load that overlapped an invalidation is not
// cached or joined, so it never serves a stale set (docs/architecture.md#sqlite).
type vectorCache struct {
	mu      sync.Mutex
	limit   int64 // bytes; <= 0 disables caching
	size    int64 // bytes of the sets kept
	tick    uint64
	sets    map[string]*cacheItem
	loading map[string]*cacheLoad // the load that later misses join
}

type cacheItem struct {
	set    *vecSet
	bytes  int64
	used   uint64
	loaded uint64 // the tick at which its load ended: it holds no write marked later
}

// cacheLoad's set and err are written before done is closed.
type cacheLoad struct {
	done    chan struct{}
	set     *vecSet
	err     error
	stale   bool // an invalidation happened during the load
	waiters int  // callers that joined the load
}

func newVectorCache(limit int64) *vectorCache {
	return &vectorCache{limit: limit, sets: map[string]*cacheItem{}, loading: map[string]*cacheLoad{}}
}

// get joins a load in flight that no invalidation has overtaken.
func (c *vectorCache) get(ctx context.Context, key string, load func() (*vecSet, error)) (*vecSet, error) {
	if c.limit <= 0 {
		return load()
	}
	c.mu.Lock()
	c.tick++
	if it, ok := c.sets[key]; ok {
		it.used = c.tick
		set := it.set // appendTo replaces it
		c.mu.Unlock()
		return set, nil
	}
	if l := c.loading[key]; l != nil && !l.stale {
		l.waiters++
		c.mu.Unlock()
		select {
		case <-l.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if l.err != nil {
			// The leader's failure (its context's end, say) need not be
			// this caller's: load without the cache.
			return load()
		}
		return l.set, nil
	}
	l := &cacheLoad{done: make(chan struct{}), err: errLoadAbandoned}
	c.loading[key] = l
	c.mu.Unlock()
	defer c.finish(key, l) // even if load panics, so that joiners never hang

	set, err := load()
	l.set, l.err = set, err // read by joiners after finish closes done
	return set, err
}

// errLoadAbandoned is the result of a load that panicked.
var errLoadAbandoned = errors.New("vector load abandoned")

// finish ends the load l of key: it caches its result unless it failed or
// went stale, and releases its joiners.
func (c *vectorCache) finish(key string, l *cacheLoad) {
	c.mu.Lock()
	if c.loading[key] == l {
		delete(c.loading, key)
	}
	if l.err == nil && !l.stale && l.set != nil {
		if n := l.set.bytes(); n <= c.limit {
			for c.size+n > c.limit && len(c.sets) > 0 {
				c.evictLocked()
			}
			c.tick++
			c.sets[key] = &cacheItem{set: l.set, bytes: n, used: c.tick, loaded: c.tick}
			c.size += n
		}
	}
	c.mu.Unlock()
	close(l.done)
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
	c.dropLocked(oldest)
}

// dropLocked forgets key's set.
func (c *vectorCache) dropLocked(key string) {
	if it, ok := c.sets[key]; ok {
		c.size -= it.bytes
		delete(c.sets, key)
	}
}

// invalidate must run after the write that changed key's rows has committed or
// failed; it also marks the load in flight stale.
func (c *vectorCache) invalidate(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropLocked(key)
	if l := c.loading[key]; l != nil {
		l.stale = true
	}
}

// mark returns the tick before a write that appendTo will report: a set
// whose load ended before it cannot hold that write's rows.
func (c *vectorCache) mark() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tick++
	return c.tick
}

// appendTo grows key's set after a write that only added vectors, so a person
// is not reloaded after each memory; grow must not change its argument.
func (c *vectorCache) appendTo(key string, mark uint64, grow func(*vecSet) *vecSet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if l := c.loading[key]; l != nil {
		l.stale = true
	}
	it, ok := c.sets[key]
	if !ok {
		return
	}
	if it.loaded >= mark {
		c.dropLocked(key)
		return
	}
	set := grow(it.set)
	n := set.bytes()
	c.size += n - it.bytes
	it.set, it.bytes = set, n
	if n > c.limit {
		c.dropLocked(key)
		return
	}
	c.tick++
	it.used = c.tick
	for c.size > c.limit {
		c.evictLocked() // not key: it was used last
	}
}

// holds reports whether key's set is cached or being loaded.
func (c *vectorCache) holds(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.sets[key]
	return ok || c.loading[key] != nil
}

// enabled reports whether the cache keeps sets at all.
func (c *vectorCache) enabled() bool { return c.limit > 0 }

// len returns how many sets are cached.
func (c *vectorCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.sets)
}

// used returns the bytes of the sets cached.
func (c *vectorCache) used() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

func userKey(userID string) string { return "u:" + userID }

const knowledgeKey = "knowledge"
