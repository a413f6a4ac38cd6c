package react

import (
	"strconv"
	"sync"
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestHoldEmitReleaseKeepsOrder emits from another goroutine, as a model's
// stream does, while the hold is released: every event comes out once, in
// the order it was emitted, whatever the interleaving.
func TestHoldEmitReleaseKeepsOrder(t *testing.T) {
	for range 20 {
		var mu sync.Mutex
		var got []string
		h := &holdEmit{to: func(e nadine.Event) { mu.Lock(); got = append(got, e.Text); mu.Unlock() }}
		const n = 500
		half := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := range n {
				if i == n/2 {
					close(half)
				}
				h.emit(nadine.Event{Kind: nadine.EventSpeech, Text: strconv.Itoa(i)})
			}
		}()
		<-half
		h.release()
		<-done
		if len(got) != n {
			t.Fatalf("%d events out, want %d", len(got), n)
		}
		for i, s := range got {
			if s != strconv.Itoa(i) {
				t.Fatalf("event %d is %s: out of order", i, s)
			}
		}
	}
}

// TestHoldEmitDrop checks that nothing held, and nothing emitted after a
// drop, ever comes out, even if release is called later.
func TestHoldEmitDrop(t *testing.T) {
	var got []nadine.Event
	h := &holdEmit{to: func(e nadine.Event) { got = append(got, e) }}
	h.emit(nadine.Event{Kind: nadine.EventSpeech, Text: "held"})
	h.drop()
	h.emit(nadine.Event{Kind: nadine.EventSpeech, Text: "late"})
	h.release()
	h.emit(nadine.Event{Kind: nadine.EventSpeech, Text: "later"})
	if len(got) != 0 {
		t.Errorf("dropped events came out: %+v", got)
	}
}
