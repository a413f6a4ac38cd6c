package agents_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/nadine-robot/nadine/agents"
)

// TestIntentSchemaNamesEveryIntent: a server that constrains the answer to
// the schema can answer every intent the graph knows (forget_me too).
func TestIntentSchemaNamesEveryIntent(t *testing.T) {
	var s struct {
		Properties struct {
			Intent struct {
				Enum []string `json:"enum"`
			} `json:"intent"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(agents.IntentFormat.Schema, &s); err != nil {
		t.Fatal(err)
	}
	for _, in := range agents.Intents() {
		if !slices.Contains(s.Properties.Intent.Enum, string(in)) {
			t.Errorf("the intent schema's enum %q lacks %s", s.Properties.Intent.Enum, in)
		}
	}
}
