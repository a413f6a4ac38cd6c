package failover

import "github.com/nadine-robot/nadine"

var _ nadine.StructuredModel = (*chatModel)(nil)

// StructuredMode is the mode of the profile the next call goes to. A later
// profile that sends less is fine: prompts ask for the format in words too.
func (m *chatModel) StructuredMode() nadine.StructuredMode {
	for _, pr := range m.chain {
		if pr.breaker.State() == Closed {
			return nadine.StructuredOf(pr.Chat)
		}
	}
	return nadine.StructuredOf(m.chain[0].Chat)
}
