package dialogue

import (
	"sync"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/speakable"
)

// speechGate is the last check of every reply sentence, for both engines;
// it is rebuilt when the engines recorded another prompt.
type speechGate struct {
	mu      sync.Mutex
	version int
	checker *speakable.Checker
	cache   speakable.Cache // each prompt prepared once
}

// sentence returns the sentence as it is to be spoken in lang, or why it
// is not spoken.
func (g *speechGate) sentence(tr *nadine.Trace, text string, lang nadine.Language, authored bool) (string, error) {
	g.mu.Lock()
	prompts, version := tr.Prompts()
	if g.checker == nil || version != g.version {
		g.checker, g.version = g.cache.New(prompts), version
	}
	c := g.checker
	g.mu.Unlock()
	if authored {
		return c.SentenceAuthored(text, lang)
	}
	return c.Sentence(text, lang)
}
