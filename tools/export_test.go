package tools

import (
	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/fence"
)

// Exported for tests in package tools_test.
var (
	RewriteDegrees = rewriteDegrees
	TitleFromFile  = titleFromFile
	Ratio          = ratio
)

// RoleLine reports whether a line starts like a chat role or ReAct keyword.
func RoleLine(s string) bool { return fence.StartsLikeStructure(s) }

// ComposePrompt renders the composer's system prompt.
func ComposePrompt(t interface{ Fatal(...any) }, lang nadine.Language) string {
	s, err := renderComposePrompt(lang)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
