package embedcache_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/embedcache"
	"github.com/nadine-robot/nadine/lexical"
)

// counting is a real embedder (lexical) that counts its calls, can fail
// them, and can hold them until released or cancelled.
type counting struct {
	inner *lexical.Embedder
	mu    sync.Mutex
	calls [][]string
	fail  int           // calls to fail first
	hold  chan struct{} // when set, calls wait for it (or their context)
}

func (c *counting) Name() string { return c.inner.Name() }

func (c *counting) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.mu.Lock()
	c.calls = append(c.calls, slices.Clone(texts))
	fail := c.fail > 0
	if fail {
		c.fail--
	}
	hold := c.hold
	c.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if fail {
		return nil, errors.New("503 Service Unavailable")
	}
	return c.inner.Embed(ctx, texts)
}

func (c *counting) n() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.calls)
}

func newCounting() *counting { return &counting{inner: lexical.New(64)} }

func embed(t *testing.T, c *embedcache.Cache, text string) []float32 {
	t.Helper()
	v, err := c.Embed(context.Background(), []string{text})
	if err != nil || len(v) != 1 {
		t.Fatalf("Embed(%q) = %d vectors, %v", text, len(v), err)
	}
	return v[0]
}

func TestQueriesAreEmbeddedOnce(t *testing.T) {
	inner := newCounting()
	c := embedcache.New(inner, embedcache.Options{})
	defer c.Close()
	a := embed(t, c, "What is new in Geneva?")
	b := embed(t, c, "What is new in Geneva?")
	if inner.n() != 1 || !slices.Equal(a, b) {
		t.Fatalf("two calls for one text: %d inner calls, equal vectors %v", inner.n(), slices.Equal(a, b))
	}
	a[0] = 42 // a caller's vector is its own
	if embed(t, c, "What is new in Geneva?")[0] == 42 {
		t.Error("the cached vector changed with a caller's copy")
	}
	if c.Name() != inner.Name() {
		t.Errorf("Name %q, want the inner space %q", c.Name(), inner.Name())
	}
	// Batches (ingestion) pass through, uncached.
	for range 2 {
		if _, err := c.Embed(context.Background(), []string{"one", "two"}); err != nil {
			t.Fatal(err)
		}
	}
	if inner.n() != 3 {
		t.Errorf("inner calls %d, want 1 + 2 batches", inner.n())
	}
}

func TestWarmedTextIsReadyForItsTurn(t *testing.T) {
	inner := newCounting()
	inner.hold = make(chan struct{})
	c := embedcache.New(inner, embedcache.Options{})
	defer c.Close()
	c.Warm("Tell me about the lake")
	c.Warm("Tell me about the lake") // already warming: no second call
	got := make(chan []float32)
	go func() {
		v, _ := c.Embed(context.Background(), []string{"Tell me about the lake"})
		got <- v[0]
	}()
	close(inner.hold)
	v := <-got
	if inner.n() != 1 {
		t.Fatalf("inner calls %d, want the warm call only", inner.n())
	}
	want, _ := lexical.New(64).Embed(context.Background(), []string{"Tell me about the lake"})
	if !slices.Equal(v, want[0]) {
		t.Error("the warmed vector is not the text's")
	}
}

func TestEntriesExpireAndFailuresAreNotKept(t *testing.T) {
	inner := newCounting()
	now := time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)
	c := embedcache.New(inner, embedcache.Options{TTL: time.Minute, Now: func() time.Time { return now }})
	defer c.Close()
	inner.fail = 1
	if _, err := c.Embed(context.Background(), []string{"hello"}); err == nil {
		t.Fatal("the inner failure was not returned")
	}
	embed(t, c, "hello") // the failure was not kept: a new call
	if inner.n() != 2 {
		t.Fatalf("inner calls %d, want 2", inner.n())
	}
	now = now.Add(59 * time.Second)
	embed(t, c, "hello")
	now = now.Add(2 * time.Second)
	embed(t, c, "hello")
	if inner.n() != 3 {
		t.Errorf("inner calls %d, want a new one only after the TTL", inner.n())
	}
}

func TestSizeResetAndClose(t *testing.T) {
	inner := newCounting()
	c := embedcache.New(inner, embedcache.Options{Size: 2})
	for i := range 3 {
		embed(t, c, fmt.Sprint("text ", i))
	}
	embed(t, c, "text 0") // the oldest was evicted
	if inner.n() != 4 {
		t.Errorf("inner calls %d, want 4 (size 2)", inner.n())
	}
	c.Reset()
	embed(t, c, "text 2")
	if inner.n() != 5 {
		t.Errorf("inner calls %d after Reset, want 5", inner.n())
	}

	// Close stops a warm call that hangs, and warms no more.
	inner.hold = make(chan struct{})
	c.Warm("a hanging call")
	closed := make(chan struct{})
	go func() { c.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("Close did not stop the warm call")
	}
	n := inner.n()
	c.Warm("after close")
	if inner.n() != n {
		t.Error("Warm after Close called the embedder")
	}
	close(inner.hold)
	embed(t, c, "a hanging call") // the cut call was not kept; Embed still works
}

// TestCached: Cached tells a kept, fresh vector without calling the
// embedder, and nothing for a text never embedded, a failed call or an
// expired entry.
func TestCached(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	inner := &counting{inner: lexical.New(0)}
	c := embedcache.New(inner, embedcache.Options{TTL: 10 * time.Second, Now: func() time.Time { return now }})
	if _, ok := c.Cached("hello"); ok {
		t.Fatal("Cached before any call")
	}
	if _, err := c.Embed(context.Background(), []string{"hello"}); err != nil {
		t.Fatal(err)
	}
	calls := inner.n()
	v, ok := c.Cached("hello")
	if !ok || len(v) == 0 || inner.n() != calls {
		t.Errorf("Cached = %v, %v after %d calls (now %d); want the vector, no call", v, ok, calls, inner.n())
	}
	now = now.Add(10 * time.Second)
	if _, ok := c.Cached("hello"); ok {
		t.Error("Cached answered an expired entry")
	}
}
