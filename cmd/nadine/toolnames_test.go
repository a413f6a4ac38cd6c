package main

import (
	"slices"
	"testing"

	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/tools"
)

// The graph engine's search agent picks its tools by the names its plans
// speak of; the wiring gives it the tools package's tools, so every search
// tool the tools package makes must bear one of those names, and every
// name must be a tool the package makes.
func TestSearchToolNamesMatchTheTools(t *testing.T) {
	ts := tools.New(tools.Config{Search: tools.SearchConfig{APIKey: "k"}, Weather: tools.WeatherConfig{APIKey: "k"}}, nil)
	defer tools.CloseAll(ts)
	var made []string
	for _, tool := range ts {
		made = append(made, tool.Name())
	}
	want := agents.SearchToolNames()
	if len(want) != 3 {
		t.Fatalf("agents.SearchToolNames() = %q, want the three search tools", want)
	}
	for _, n := range want {
		if !slices.Contains(made, n) {
			t.Errorf("the graph's search tool %q is not a tool the tools package makes (it makes %q)", n, made)
		}
	}
	for _, n := range []string{tools.NameSearch, tools.NameNews, tools.NameWeather} {
		if !slices.Contains(want, n) {
			t.Errorf("the tools package's search tool %q is unknown to the graph's search agent (%q)", n, want)
		}
	}
}
