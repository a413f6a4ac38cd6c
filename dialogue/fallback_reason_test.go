package dialogue_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestFallbackReason: the engine that answers after another failed learns
// why (the failure's code), and the first engine asked learns nothing, so
// that what a fallback says about why is true.
func TestFallbackReason(t *testing.T) {
	tests := []struct {
		name  string
		fails []error
		want  string
	}{
		{"first engine answers", nil, ""},
		{"model unreachable", []error{nadine.Errorf(nadine.EUNAVAILABLE, "openai: 503")}, nadine.EUNAVAILABLE},
		{"rate limited", []error{nadine.Errorf(nadine.ERATELIMIT, "openai: 429")}, nadine.ERATELIMIT},
		{"unusable answer", []error{nadine.Errorf(nadine.EBADOUTPUT, "react: no JSON")}, nadine.EBADOUTPUT},
		{"a bug", []error{errors.New("nil map")}, nadine.EINTERNAL},
		{"the last failure counts", []error{nadine.Errorf(nadine.EUNAVAILABLE, "a"), nadine.Errorf(nadine.EBADOUTPUT, "b")}, nadine.EBADOUTPUT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var engines []nadine.Engine
			for i, err := range tt.fails {
				engines = append(engines, &scriptedEngine{name: "model" + string(rune('a'+i)), err: err})
			}
			last := &scriptedEngine{name: "offline", reply: nadine.Reply{Text: "Hello.", Language: nadine.English}}
			m, _ := newManager(t, append(engines, last)...)
			if _, err := m.ProcessInput(context.Background(), nadine.Turn{Text: "Hello"}); err != nil {
				t.Fatal(err)
			}
			if len(last.reqs) != 1 || last.reqs[0].FallbackReason != tt.want {
				t.Fatalf("requests %d, FallbackReason %q, want %q", len(last.reqs), last.reqs[0].FallbackReason, tt.want)
			}
			for i, e := range engines {
				if r := e.(*scriptedEngine).reqs[0].FallbackReason; (i == 0) != (r == "") {
					t.Errorf("engine %d was asked with FallbackReason %q", i, r)
				}
			}
		})
	}
}
