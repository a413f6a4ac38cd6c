package offline

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/speakable"
	"github.com/nadine-robot/nadine/spoken"
)

// TestEveryLineIsSaid: every wording of the engine's templates, rendered with
// its slots, passes the speech gate as an authored line. The engine is every
// turn's last fallback: a line the gate refused ("Happy to help!" taken for a
// model's assistant-ism) left the turn with only the apology.
func TestEveryLineIsSaid(t *testing.T) {
	c := speakable.New(nil)
	n := 0
	for lang, byKey := range renderAll(t) {
		for key, lines := range byKey {
			for _, l := range lines {
				for _, s := range spoken.SplitSentences(l) {
					n++
					if said, err := c.SentenceAuthored(s, lang); err != nil || strings.TrimSpace(said) == "" {
						t.Errorf("%s %s: %q is not said: %v", lang, key, s, err)
					}
				}
			}
		}
	}
	t.Logf("%d sentences of the templates, each said", n)
}
