package mqtt

import (
	"container/list"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
)

// dedup keeps a transcript from being answered twice (docs/architecture.md#mqtt).
type dedup struct {
	mu     sync.Mutex
	ids    *lru // transcript ids, without time limit
	texts  *lru // "language\x00text" of transcripts without id
	window time.Duration
}

func newDedup(size int, window time.Duration) *dedup {
	return &dedup{ids: newLRU(size), texts: newLRU(size), window: window}
}

// seen does not record t (deliver does); an id-less transcript is a duplicate
// only when redelivered (dup) with the same text within the window.
func (d *dedup) seen(t nadine.Transcript, dup bool, now time.Time) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if t.ID != "" {
		_, ok := d.ids.get(t.ID)
		return ok
	}
	if !dup {
		return false
	}
	at, ok := d.texts.get(textKey(t))
	return ok && now.Sub(at) <= d.window
}

// deliver records t as delivered at now.
func (d *dedup) deliver(t nadine.Transcript, now time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if t.ID != "" {
		d.ids.put(t.ID, now)
		return
	}
	d.texts.put(textKey(t), now)
}

func textKey(t nadine.Transcript) string { return string(t.Language) + "\x00" + t.Text }

// lru drops the least recently recorded key first when full.
type lru struct {
	max   int
	order *list.List // of *lruEntry, most recent first
	items map[string]*list.Element
}

type lruEntry struct {
	key string
	at  time.Time
}

func newLRU(max int) *lru {
	return &lru{max: max, order: list.New(), items: make(map[string]*list.Element)}
}

func (l *lru) get(key string) (time.Time, bool) {
	e, ok := l.items[key]
	if !ok {
		return time.Time{}, false
	}
	return e.Value.(*lruEntry).at, true
}

func (l *lru) put(key string, at time.Time) {
	if e, ok := l.items[key]; ok {
		e.Value.(*lruEntry).at = at
		l.order.MoveToFront(e)
		return
	}
	l.items[key] = l.order.PushFront(&lruEntry{key: key, at: at})
	for l.order.Len() > l.max {
		last := l.order.Back()
		l.order.Remove(last)
		delete(l.items, last.Value.(*lruEntry).key)
	}
}
