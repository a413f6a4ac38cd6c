package dialogue_test

import (
	"context"
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestFallbackReasonIsTrue: the engine that answers after another failed
// is told why (the failure's code), so that what it says about why is
// true; the first engine asked is told nothing.
func TestFallbackReasonIsTrue(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"model down", nadine.Errorf(nadine.EUNAVAILABLE, "openai: connection refused"), nadine.EUNAVAILABLE},
		{"unusable answers", nadine.Errorf(nadine.EBADOUTPUT, "react: the model's answer is not a reply, twice"), nadine.EBADOUTPUT},
	} {
		t.Run(tt.name, func(t *testing.T) {
			first := &scriptedEngine{name: "react", err: tt.err}
			last := &scriptedEngine{name: "offline", reply: nadine.Reply{Text: "Hello."}}
			m, _ := newManager(t, first, last)
			if _, err := m.ProcessInput(context.Background(), nadine.Turn{Text: "Hi"}); err != nil {
				t.Fatal(err)
			}
			if got := first.reqs[0].FallbackReason; got != "" {
				t.Errorf("first engine told %q", got)
			}
			if got := last.reqs[0].FallbackReason; got != tt.want {
				t.Errorf("fallback engine told %q, want %q", got, tt.want)
			}
		})
	}
}
