package offline_test

import (
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/offline"
)

// TestMoodVocabularies reads German moods said with a word of the mood
// vocabularies (`## @good`, `## @tired`, lookup tables) that no example
// puts in that frame: the table stands for the word, so one example of a
// frame covers every word of the mood.
func TestMoodVocabularies(t *testing.T) {
	t.Parallel() // reads the shared model, writes nothing shared
	e := testEngine(offline.Options{})
	checkIntents(t, e, nadine.German, []struct{ text, want string }{
		{"ich fühle mich wunderbar", "feeling_good"},
		{"Wir sind hier im Museum und ich fühle mich wunderbar.", "feeling_good"},
		{"Meine Klasse macht heute hier einen Ausflug ich fühle mich wunderbar.", "feeling_good"},
		{"mir geht es prächtig heute", "feeling_good"},
		{"ich bin heute völlig ausgelaugt", "feeling_tired"},
		{"ich fühle mich erschöpft", "feeling_tired"},
	})
}

// checkIntents reads each text in lang as a first turn and fails on an
// outcome other than the one wanted (its trace name).
func checkIntents(t *testing.T, e *offline.Engine, lang nadine.Language, cases []struct{ text, want string }) {
	t.Helper()
	for _, tt := range cases {
		if got := respond(t, e, nadine.Turn{Text: tt.text, Language: lang}).intent(); got != tt.want {
			t.Errorf("%q → %s, want %s", tt.text, got, tt.want)
		}
	}
}
