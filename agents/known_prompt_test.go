package agents

import (
	"encoding/json"
	"flag"
	"os"
	"testing"
)

var updateKnown = flag.Bool("update-known", false, "rewrite speakable/prompts/response.json")

// TestKnownPromptCurrent keeps the gate's copy of every text the response
// prompt can hold (speakable/prompts/response.json) in step with the
// templates: the gate of either engine knows both engines' prompts. Run
// with -update-known after changing a template.
func TestKnownPromptCurrent(t *testing.T) {
	p, err := loadPrompts()
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(staticResponsePrompt(p), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	const file = "../speakable/prompts/response.json"
	if *updateKnown {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./agents -run KnownPromptCurrent -update-known)", err)
	}
	if string(have) != string(got) {
		t.Errorf("%s is out of date: run go test ./agents -run KnownPromptCurrent -update-known", file)
	}
}
