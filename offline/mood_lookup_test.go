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
	tests := []struct{ text, want string }{
		{"ich fühle mich wunderbar", "feeling_good"},
		{"Wir sind hier im Museum und ich fühle mich wunderbar.", "feeling_good"},
		{"Meine Klasse macht heute hier einen Ausflug ich fühle mich wunderbar.", "feeling_good"},
		{"mir geht es prächtig heute", "feeling_good"},
		{"ich bin heute völlig ausgelaugt", "feeling_tired"},
		{"ich fühle mich erschöpft", "feeling_tired"},
	}
	for _, tt := range tests {
		if got := respond(t, e, nadine.Turn{Text: tt.text, Language: nadine.German}).intent(); got != tt.want {
			t.Errorf("%q → %s, want %s", tt.text, got, tt.want)
		}
	}
}
