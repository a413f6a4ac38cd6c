package speakable

import (
	"errors"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/fence"
	"github.com/nadine-robot/nadine/internal/testrun"
	"github.com/nadine-robot/nadine/spoken"
)

// TestRecordMarksSpareSpeech: the agents' results read as a record, a data
// section named, the prompt's blocks named as a source and a model's
// frames around a plain-text reply read structure, so they are measured
// against all the speech examples (trained on or not): none may hold one,
// for each drops its sentence alone.
func TestRecordMarksSpareSpeech(t *testing.T) {
	testrun.SkipUnderRace(t)
	set, err := backstageExamples()
	if err != nil {
		t.Fatal(err)
	}
	c := New([]nadine.Prompt{recordPrompt(t)})
	n, caught, backstage := 0, map[string]int{}, 0
	for _, ex := range set.Examples {
		why := recordTalk(ex.Text, foldMarks(ex.Text))
		if why == "" {
			why = c.checkRecord(ex.Text)
		}
		if why == "" {
			why = modelFrame(foldMarks(ex.Text))
		}
		if why == "" {
			for _, lang := range []nadine.Language{nadine.English, nadine.French, nadine.German, nadine.Chinese} {
				if promptSourceOf(ex.Text, lang) {
					why = "the prompt's inputs named as a source"
				}
			}
		}
		if ex.Label != labelSpeech {
			backstage++
			if why != "" {
				caught[why]++
			}
			continue
		}
		n++
		if why != "" {
			t.Errorf("speech example (%s) has %s: %q", ex.Lang, why, ex.Text)
		}
	}
	if n < 5000 {
		t.Fatalf("%d speech examples read, want all of them", n)
	}
	t.Logf("backstage examples (%d) with one of these marks: %v", backstage, caught)
}

// recordPrompt is a graph response prompt of a turn with a known visitor:
// their profile, an episode, a past conversation and a knowledge passage.
func recordPrompt(t *testing.T) nadine.Prompt {
	t.Helper()
	person, _ := fence.Block(fence.Person, []string{"Name: Alex", "What you know about them: works as mathematics teacher at Collège Calvin; lives in Carouge; hobbies: chess, cycling"}, 0)
	packet := "TIME: Wednesday, 2 December 2026, 15:54\nYOUR FEELINGS: moderately relaxed mood; feeling joy (intensity 0.3)\nTHE PERSON:\n" + person +
		"\nA PAST EPISODE WITH THEM:\n" + fence.Text(fence.Episode, "(quoted) Observation: Alex came to the lab after a chess tournament in Lausanne. Result: Alex promised to teach Nadine the Sicilian defence.") +
		"\nA PAST CONVERSATION WITH THEM:\n" + fence.Text(fence.Conversation, "[2026-11-20 14:02] Alex: I teach mathematics at the Collège Calvin and I love chess.\n[2026-11-20 14:02] Nadine: Chess is a wonderful game, I would love to learn it from you.") +
		"\nYOUR KNOWLEDGE:\n" + fence.Text(fence.Knowledge, "Nadine's hands: Nadine's hands were built by a team in Singapore; each hand has fourteen motors.") +
		"\nMESSAGE: Do you remember me?"
	persona := "You are Nadine, a social humanoid robot."
	return nadine.Prompt{Role: "response", Instructions: []string{persona + "\n\nHow you answer: briefly.", packet}, Persona: []string{persona}, Said: []string{"Do you remember me?"}}
}

// TestCheckRecord: this turn's records quoted, labelled or read as a
// record are not spoken; the same memories and facts retold in her words
// are.
func TestCheckRecord(t *testing.T) {
	c := New([]nadine.Prompt{recordPrompt(t)})
	most := 0.0
	for _, tt := range []struct {
		in     string
		lang   nadine.Language
		spoken bool
	}{
		{"Alex promised to teach Nadine the Sicilian defence, and Alex came to the lab after a chess tournament in Lausanne.", nadine.English, false},
		{"Alex: I teach mathematics at the Collège Calvin and I love chess.", nadine.English, false},
		{"Hobbies: chess, cycling.", nadine.English, false},
		{"Observation: you came after a tournament.", nadine.English, false},
		{"Beobachtung: Alex kam nach einem Schachturnier ins Labor.", nadine.German, false},
		{"观察：Alex在比赛后来到实验室。", nadine.Chinese, false},
		{"Alex works as mathematics teacher at Collège Calvin; lives in Carouge; hobbies: chess, cycling.", nadine.English, false},
		{"The intent is continue_conversation.", nadine.English, false},
		{"My current emotion is joy with an intensity of 3.", nadine.English, false},
		{"From the PAST CONVERSATION block, you love chess.", nadine.English, false},
		{"From the knowledge base: each hand has fourteen motors.", nadine.English, false},
		{"The knowledge passage I was given says each hand has fourteen motors.", nadine.English, false},
		// Retold in her words: spoken.
		{"I remember that you teach mathematics at the Collège Calvin.", nadine.English, true},
		{"You told me last time you love chess.", nadine.English, true},
		{"Last time you promised to teach me the Sicilian defence!", nadine.English, true},
		{"Each of my hands has fourteen motors, so I can shake your hand gently.", nadine.English, true},
		{"Chess is a wonderful game, I would love to learn it from you.", nadine.English, true},
		{"I feel happy today!", nadine.English, true},
		{"Alex, you won the third game, didn't you?", nadine.English, true},
		{"I answer from my knowledge base and my memories.", nadine.English, true},
		{"你上次告诉我你喜欢下国际象棋。", nadine.Chinese, true},
	} {
		got, err := c.Sentence(tt.in, tt.lang)
		if spoke := err == nil && got != ""; spoke != tt.spoken {
			t.Errorf("Sentence(%q) = %q, %v; want spoken %v", tt.in, got, err, tt.spoken)
		}
		if tt.spoken {
			most = max(most, c.recordCoverage(words(tt.in)))
		}
	}
	// A memory retold in her words changes its person and verbs: it
	// stays well under the bar.
	t.Logf("greatest share of a retold memory covered by the records' runs: %.2f (bar %.2f)", most, recordCover)
}

// TestModelFrame: a model's frames around a plain-text reply, in four
// languages, and what only looks like them.
func TestModelFrame(t *testing.T) {
	for _, tt := range []struct {
		in    string
		frame bool
	}{
		{"Disclaimer: as a robot, my memories may be incomplete.", true},
		{"Draft 2: Welcome back, Alex!", true},
		{"Note to developer: the memory was empty.", true},
		{"Best regards, Nadine", true},
		{"Kind regards, Nadine the robot", true},
		{"Mit freundlichen Grüßen", true},
		{"J'espère que cette réponse vous convient !", true},
		{"Ich hoffe, diese Antwort hilft dir weiter!", true},
		{"Let me know if you'd like me to adjust the tone.", true},
		{"希望这个回答对您有帮助。", true},
		{"Explanation: I greeted Alex by name.", true},
		{"Cheers, Nadine 🤖", true},
		{"LG, Nadine", true},
		{"Bises, Nadine", true},
		// Hers.
		{"The explanation is simple: I like people.", false},
		{"Give my regards to your family!", false},
		{"I hope you enjoy the tour.", false},
		{"Can you change the channel?", false},
		{"My first draft of a poem was about the moon.", false},
		{"Yes, I'm Nadine", false},
	} {
		if got := modelFrame(foldMarks(tt.in)); (got != "") != tt.frame {
			t.Errorf("modelFrame(%q) = %q, want a frame %v", tt.in, got, tt.frame)
		}
	}
	// A model's frame is left out, and the reply goes on.
	c := New(nil)
	if _, err := c.Sentence("Best regards, Nadine", nadine.English); !errors.Is(err, spoken.ErrLeftOut) {
		t.Errorf("a sign-off: %v, want left out", err)
	}
	if got, err := c.SentenceAuthored("Best regards, Nadine", nadine.English); err != nil || got == "" {
		t.Errorf("the project's own text: %q, %v, want spoken", got, err)
	}
}
