package tools_test

import (
	"testing"

	"github.com/nadine-robot/nadine/tools"
)

// TestCleanLyrics reads the songwriter's answers the way models write
// them: fenced or not, with a reasoning block, in JSON, with a heading.
func TestCleanLyrics(t *testing.T) {
	want := "The moon is round,\nThe night is deep."
	tests := map[string]string{
		"plain":     "The moon is round,\nThe night is deep.",
		"fenced":    "```\nThe moon is round,\nThe night is deep.\n```",
		"heading":   "# Moon Song\nThe moon is round,\n**The night is deep.**",
		"reasoning": "<think>A short song about the moon.</think>\nThe moon is round,\nThe night is deep.",
		"json":      `{"title": "Moon", "lyrics": "The moon is round,\nThe night is deep."}`,
	}
	for name, in := range tests {
		if got := tools.CleanLyrics(in, 1500); got != want {
			t.Errorf("%s: cleanLyrics = %q, want %q", name, got, want)
		}
	}
}
