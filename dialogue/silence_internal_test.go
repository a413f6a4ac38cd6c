package dialogue

import (
	"context"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
)

// TestSayIfSilent: the silence filler is said only while no reply sentence
// was published and the turn is not over.
func TestSayIfSilent(t *testing.T) {
	newC := func() *collector {
		tr := nadine.NewTrace("t", "hi", time.Now())
		return newCollector(context.Background(), tr, nadine.English, nil, func(nadine.Event) {},
			func(_ context.Context, s string, stated, _ nadine.Language) (string, nadine.Language, bool) {
				return s, stated, false
			})
	}
	say := func(calls *int) func(nadine.EmitFunc) bool {
		return func(emit nadine.EmitFunc) bool {
			*calls++
			emit(nadine.Event{Kind: nadine.EventSpeech, Text: "Hmm, let me see.", Filler: true})
			return true
		}
	}
	tests := []struct {
		name  string
		setup func(c *collector)
		want  int
	}{
		{"silent", func(*collector) {}, 1},
		{"a sentence was spoken", func(c *collector) {
			c.attempt()(nadine.Event{Kind: nadine.EventSpeech, Text: "Hello Robin."})
		}, 0},
		{"a filler does not count as speech", func(c *collector) {
			c.attempt()(nadine.Event{Kind: nadine.EventSpeech, Text: "One moment.", Filler: true})
		}, 1},
		{"the turn ended", func(c *collector) { c.end() }, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newC()
			tt.setup(c)
			calls := 0
			if got := c.sayIfSilent(say(&calls)); got != (tt.want == 1) || calls != tt.want {
				t.Errorf("sayIfSilent = %v with %d calls, want %d", got, calls, tt.want)
			}
		})
	}
}
