package failover_test

import (
	"context"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/failover"
)

// structuredModel is a fakeModel that says how its server constrains
// answers.
type structuredModel struct {
	fakeModel
	mode nadine.StructuredMode
}

func (m *structuredModel) StructuredMode() nadine.StructuredMode { return m.mode }

// TestStructuredModeOfAChain: a role's model constrains answers as the
// profile its next call goes to: the first whose circuit is closed.
func TestStructuredModeOfAChain(t *testing.T) {
	primary := &structuredModel{mode: nadine.StructuredTools}
	backup := &structuredModel{mode: nadine.StructuredText}
	p := newPool(t, failover.Options{Breaker: failover.BreakerConfig{Failures: 1}},
		failover.Profile{Name: "big", Chat: primary}, failover.Profile{Name: "small", Chat: backup})
	m := p.Chat("react_agent", failover.Timeouts{}, "big", "small")
	if got := nadine.StructuredOf(m); got != nadine.StructuredTools {
		t.Errorf("mode %q, want the primary's (tools)", got)
	}
	primary.setAnswer(failing(err500))
	if _, err := m.Chat(context.Background(), nadine.ChatRequest{Role: "react_agent", Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Content: "hi"}}}); err != nil {
		t.Fatalf("the backup did not answer: %v", err)
	}
	if got := nadine.StructuredOf(m); got != nadine.StructuredText {
		t.Errorf("mode %q with the primary's circuit open, want the backup's (text)", got)
	}
	if got := nadine.StructuredOf(p.Chat("other", failover.Timeouts{}, "big")); got != nadine.StructuredTools {
		t.Errorf("a chain of one open profile: %q, want its own mode", got)
	}
}
