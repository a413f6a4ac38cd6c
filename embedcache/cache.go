// Package embedcache keeps the vectors of a turn's search texts for a short
// while: both engines search with the same words more than once, and Warm
// embeds interim transcripts so the turn finds its vector ready.
// Only single texts are cached, in memory, bounded in count and age; Reset
// drops them all (an erase). See docs/architecture.md#embedcache.
package embedcache

import (
	"context"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
)

// Defaults of Options.
const (
	DefaultSize        = 32
	DefaultTTL         = 10 * time.Second
	DefaultWarmTimeout = 10 * time.Second
)

// Options configure a Cache; zero values take the defaults.
type Options struct {
	Size        int              // entries kept at most
	TTL         time.Duration    // how long an entry is kept
	WarmTimeout time.Duration    // bound of one Warm call's embedding
	Now         func() time.Time // the clock (time.Now)
}

// Cache is a nadine.Embedder that remembers its recent single-text calls.
// It is safe for concurrent use; Close stops the embeddings Warm started.
type Cache struct {
	inner nadine.Embedder
	opts  Options

	life   context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	closed  bool
	entries map[string]*entry
}

// entry is one text's vector, or the call computing it (done open).
type entry struct {
	done  chan struct{}
	v     []float32
	err   error
	at    time.Time // when the call ended
	ready bool
}

var _ nadine.Embedder = (*Cache)(nil)

// New returns a cache in front of inner.
func New(inner nadine.Embedder, opts Options) *Cache {
	if opts.Size <= 0 {
		opts.Size = DefaultSize
	}
	if opts.TTL <= 0 {
		opts.TTL = DefaultTTL
	}
	if opts.WarmTimeout <= 0 {
		opts.WarmTimeout = DefaultWarmTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	c := &Cache{inner: inner, opts: opts, entries: map[string]*entry{}}
	c.life, c.cancel = context.WithCancel(context.Background())
	return c
}

// Name implements nadine.Embedder: the inner embedder's space.
func (c *Cache) Name() string { return c.inner.Name() }

// Embed caches only single texts, and joins a call already computing one;
// batches (ingestion, re-embedding) pass through.
func (c *Cache) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) != 1 {
		return c.inner.Embed(ctx, texts)
	}
	var e *entry
	// A call this one waited for may fail (a Warm cut by Close, another
	// caller's cancelled context): then this call makes its own.
	for range 2 {
		c.mu.Lock()
		var mine bool
		e, mine = c.entryLocked(texts[0])
		c.mu.Unlock()
		if mine {
			c.compute(ctx, texts[0], e)
			break
		}
		select {
		case <-e.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if e.err == nil {
			break
		}
	}
	if e.err != nil {
		return nil, e.err
	}
	return [][]float32{append([]float32(nil), e.v...)}, nil
}

// Cached calls nothing, so a turn can ask whether the previous message's words
// can be searched with at no cost.
func (c *Cache) Cached(text string) ([]float32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[text]
	if !ok || !e.ready || e.err != nil || c.opts.Now().Sub(e.at) >= c.opts.TTL {
		return nil, false
	}
	return append([]float32(nil), e.v...), true
}

// Warm returns at once; its call is bounded by Options.WarmTimeout and stopped
// by Close.
func (c *Cache) Warm(text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	e, mine := c.entryLocked(text)
	if !mine {
		return
	}
	c.wg.Go(func() {
		ctx, cancel := context.WithTimeout(c.life, c.opts.WarmTimeout)
		defer cancel()
		c.compute(ctx, text, e)
	})
}

// EraseUser implements nadine.UserEraser: an erase drops every entry, since
// the cache keeps recent words without knowing whose they were.
func (c *Cache) EraseUser(context.Context, string) error {
	c.Reset()
	return nil
}

// Reset drops every entry (calls in flight still answer their waiters,
// and are not kept).
func (c *Cache) Reset() {
	c.mu.Lock()
	c.entries = map[string]*entry{}
	c.mu.Unlock()
}

// Close stops the embeddings Warm started and waits for them; the cache
// still answers Embed, without warming.
func (c *Cache) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.cancel()
	c.wg.Wait()
	return nil
}

// entryLocked returns text's live entry, or a new one that the caller
// must compute (mine); c.mu is held.
func (c *Cache) entryLocked(text string) (e *entry, mine bool) {
	if e, ok := c.entries[text]; ok {
		if !e.ready || (e.err == nil && c.opts.Now().Sub(e.at) < c.opts.TTL) {
			return e, false
		}
	}
	e = &entry{done: make(chan struct{})}
	c.entries[text] = e
	return e, true
}

// compute embeds text into e.
func (c *Cache) compute(ctx context.Context, text string, e *entry) {
	v, err := nadine.EmbedOne(ctx, c.inner, text)
	c.finish(text, e, v, err)
}

// finish ends e's call, keeping it when it succeeded (and is still the
// text's entry), and evicts the oldest entries beyond Options.Size.
func (c *Cache) finish(text string, e *entry, v []float32, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.v, e.err, e.at, e.ready = v, err, c.opts.Now(), true
	close(e.done)
	if cur, ok := c.entries[text]; ok && cur == e && err != nil {
		delete(c.entries, text)
	}
	for len(c.entries) > c.opts.Size {
		var oldest string
		var at time.Time
		found := false
		for k, x := range c.entries {
			if x.ready && (!found || x.at.Before(at)) {
				oldest, at, found = k, x.at, true
			}
		}
		if !found {
			break
		}
		delete(c.entries, oldest)
	}
}
