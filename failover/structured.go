package failover

import "github.com/nadine-robot/nadine"

var _ nadine.StructuredModel = (*chatModel)(nil)

// StructuredMode implements nadine.StructuredModel: the mode of the first
// profile of the chain whose circuit lets calls through (the one the next
// call goes to), else of the first. A later profile with less sends less:
// its client leaves out what it does not send, and the prompts ask for the
// format in words in every mode.
func (m *chatModel) StructuredMode() nadine.StructuredMode {
	for _, pr := range m.chain {
		if pr.breaker.State() == Closed {
			return nadine.StructuredOf(pr.Chat)
		}
	}
	return nadine.StructuredOf(m.chain[0].Chat)
}
