package offline

import (
	"testing"

	"github.com/nadine-robot/nadine"
)

// introCase is an utterance read under hints: the outcome it must have
// (want, its trace name, "" for none that is an introduction) and the name
// it must give.
type introCase struct {
	say       string
	h         hints
	want, who string
}

// checkIntroductions reads each case in lang and fails on an introduction
// where none is wanted, or on another outcome or name than the one wanted.
func checkIntroductions(t *testing.T, e *Engine, lang nadine.Language, cases []introCase) {
	t.Helper()
	for _, c := range cases {
		got := e.classify(c.say, lang, c.h)
		if c.want == "" && got.intent == iName || c.want != "" && (got.traceName() != c.want || got.name != c.who) {
			t.Errorf("%q: %s %q, want %s %q", c.say, got.traceName(), got.name, c.want, c.who)
		}
	}
}
