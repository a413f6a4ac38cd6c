package tools

import (
	"strings"
	"unicode"

	"github.com/nadine-robot/nadine/fence"
)

// Untrusted text from the services is neutralized and fenced by package
// fence, which the engines share for their own data sections.
var (
	cleanText = fence.Clean
	safeLine  = fence.Line
	truncate  = fence.Truncate
)

// field renders "label: value" with a cleaned value, or "" for an empty
// value. Labels are ours; the line therefore never starts with a role.
func field(label, value string) string {
	v := cleanText(value)
	if v == "" {
		return ""
	}
	return label + ": " + v
}

// cleanInput tidies a model-written action input: it trims spaces, quotes
// and backticks and removes control characters.
func cleanInput(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && r != '\n' || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
	return strings.Trim(strings.TrimSpace(s), " \t\n\"'`“”‘’«»")
}
