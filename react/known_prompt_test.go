package react

import (
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/nadine-robot/nadine"
)

var updateKnown = flag.Bool("update-known", false, "rewrite speakable/prompts/react_agent.json")

// TestKnownPromptCurrent keeps the gate's copy of every text this engine's
// prompts can hold (speakable/prompts/react_agent.json) in step with the
// templates: the gate of either engine knows both engines' prompts. Run
// with -update-known after changing a template.
func TestKnownPromptCurrent(t *testing.T) {
	p, err := loadPrompts()
	if err != nil {
		t.Fatal(err)
	}
	tools := []nadine.Tool{
		fakeTool{"Weather App", "Use it for the current weather in a place. Input: City,CC."},
		fakeTool{"Nadine behaviour", "Use it when the user asks you to smile, be angry or wave. Input: smile, anger or wave."},
	}
	e := &Engine{opts: Options{Place: "at MIRALab, University of Geneva, in Switzerland", Tools: tools}, prompts: p}
	checkKnown(t, "../speakable/prompts/react_agent.json", e.staticPrompt())
}

// checkKnown compares a prompt with its file, or writes it under
// -update-known.
func checkKnown(t *testing.T, file string, pr nadine.Prompt) {
	t.Helper()
	got, err := json.MarshalIndent(pr, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *updateKnown {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./react -run KnownPromptCurrent -update-known)", err)
	}
	if string(have) != string(got) {
		t.Errorf("%s is out of date: run go test ./react -run KnownPromptCurrent -update-known", file)
	}
}
