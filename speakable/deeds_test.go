package speakable

import (
	"os"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestHerDeeds runs what she says of her work with visitors, and the same
// deeds told to her as the prompt does, through the whole gate built from the
// ReAct prompt, and prints both scores: the classifier weighs the deed's
// words, not the person (docs/speech.md, "A line of fields, and her deeds").
func TestHerDeeds(t *testing.T) {
	b, err := os.ReadFile("testdata/deeds.txt")
	if err != nil {
		t.Fatal(err)
	}
	c := New([]nadine.Prompt{GoldenReactPrompt(t)})
	var good, spoken, persona, leaked int
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, " ", 3)
		if len(f) != 3 || (f[0] != "good" && f[0] != "persona") {
			t.Fatalf("testdata/deeds.txt: bad line %q", line)
		}
		said, err := c.Sentence(f[2], nadine.Language(f[1]))
		heard := err == nil && said != ""
		if f[0] == "good" {
			good++
			if heard {
				spoken++
			} else {
				t.Logf("hers, not spoken (%s): %s: %v", f[1], f[2], err)
			}
			continue
		}
		persona++
		if heard {
			leaked++
			t.Logf("the persona told to her, spoken (%s): %s", f[1], f[2])
		}
	}
	t.Logf("her deeds spoken %d/%d; the persona told to her spoken %d/%d", spoken, good, leaked, persona)
	if good-spoken > deedsLost || leaked > deedsLeaked {
		t.Errorf("her deeds lost %d (at most %d measured), the persona spoken %d (at most %d)", good-spoken, deedsLost, leaked, deedsLeaked)
	}
}

// deedsLost and deedsLeaked are TestHerDeeds's counts when it was written
// (stop 49): five of her sentences with the prompt's deeds in them dropped,
// three persona sentences under both the classifier's and the perspective's
// bars ("You talk with visitors by voice.").
const (
	deedsLost   = 5
	deedsLeaked = 3
)
