package nadine_test

import (
	"strconv"
	"sync"
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestHoldReleaseKeepsOrder emits from another goroutine, as a model's
// stream does, while the hold is released: every event comes out once, in
// the order it was emitted, whatever the interleaving.
func TestHoldReleaseKeepsOrder(t *testing.T) {
	for range 20 {
		var mu sync.Mutex
		var got []string
		h := nadine.NewHold(func(e nadine.Event) { mu.Lock(); got = append(got, e.Text); mu.Unlock() })
		const n = 500
		half := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := range n {
				if i == n/2 {
					close(half)
				}
				h.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: strconv.Itoa(i)})
			}
		}()
		<-half
		if !h.Release() {
			t.Fatal("Release of a holding hold = false")
		}
		<-done
		if len(got) != n {
			t.Fatalf("%d events out, want %d", len(got), n)
		}
		for i, s := range got {
			if s != strconv.Itoa(i) {
				t.Fatalf("event %d is %s: out of order", i, s)
			}
		}
		if h.Drop() {
			t.Error("Drop after a release = true; its events went out")
		}
	}
}

// TestHoldDrop checks that nothing held, and nothing emitted after a drop,
// ever comes out, even if Release is called later.
func TestHoldDrop(t *testing.T) {
	var got []nadine.Event
	h := nadine.NewHold(func(e nadine.Event) { got = append(got, e) })
	h.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: "held"})
	if n := len(h.Held()); n != 1 {
		t.Errorf("Held = %d events, want 1", n)
	}
	if !h.Drop() {
		t.Error("Drop of a holding hold = false")
	}
	h.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: "late"})
	if h.Release() {
		t.Error("Release after a drop = true")
	}
	h.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: "later"})
	if len(got) != 0 || len(h.Held()) != 0 {
		t.Errorf("dropped events came out: %+v", got)
	}
}
