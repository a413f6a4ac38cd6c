package speakable

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sync"

	"github.com/nadine-robot/nadine"
)

// Every engine's prompts, known to the gate of each: a reply is checked
// against the prompts its engine sent and against every text the project's
// prompts can hold, so that a graph reply that copies the ReAct rules (or
// the reverse) is the prompt's as much as its own engine's. The files are
// written by the engines' tests (go test ./react ./agents -run
// KnownPromptCurrent -args -update-known), which fail when they are out of
// date.

//go:embed prompts/*.json
var knownFiles embed.FS

// knownEchoes are the project's prompts prepared for the check, once.
var knownEchoes = sync.OnceValues(func() ([]*echo, error) {
	names, err := fs.Glob(knownFiles, "prompts/*.json")
	if err != nil {
		return nil, fmt.Errorf("speakable: known prompts: %w", err)
	}
	var out []*echo
	for _, name := range names {
		b, err := knownFiles.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("speakable: %s: %w", name, err)
		}
		var p nadine.Prompt
		if err := json.Unmarshal(b, &p); err != nil {
			return nil, fmt.Errorf("speakable: %s: %w", name, err)
		}
		out = append(out, newEcho(p))
	}
	return out, nil
})

// withKnown adds the project's prompts to a turn's; a file that cannot be
// read leaves the turn's alone (the engines' tests read them all).
func withKnown(echoes []*echo) []*echo {
	known, err := knownEchoes()
	if err != nil {
		return echoes
	}
	return append(echoes, known...)
}
