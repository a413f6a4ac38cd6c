package react

import (
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
)

func TestParseStep(t *testing.T) {
	tools := []string{"Weather App", "Nadine behaviour"}
	final := `{"action": "Final Answer", "category": "greeting", "emotion": "joy", "emotion_intensity": 6, "causing_person": "Alex", "action_input": "Hello Alex!"}`
	tests := []struct {
		name    string
		in      string
		want    step
		wantErr string
	}{
		{"fenced final", "Sure.\n```json\n" + final + "\n```", step{Action: finalAction, Input: "Hello Alex!", Category: nadine.CategoryGreeting, Emotion: nadine.Joy, Intensity: 6, CausingPerson: "Alex"}, ""},
		{"bare final", final, step{Action: finalAction, Input: "Hello Alex!", Category: nadine.CategoryGreeting, Emotion: nadine.Joy, Intensity: 6, CausingPerson: "Alex"}, ""},
		{"prompt order", `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 6, "action_input": "Hello Alex!", "category": "greeting", "causing_person": "Alex"}`, step{Action: finalAction, Input: "Hello Alex!", Category: nadine.CategoryGreeting, Emotion: nadine.Joy, Intensity: 6, CausingPerson: "Alex"}, ""},
		{"any order", `{"causing_person": "alex", "action_input": "Hello Alex!", "category": "Greeting", "emotion_intensity": 6, "emotion": "JOY", "action": "final answer"}`, step{Action: finalAction, Input: "Hello Alex!", Category: nadine.CategoryGreeting, Emotion: nadine.Joy, Intensity: 6, CausingPerson: "Alex"}, ""},
		{"missing category", `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 6, "action_input": "Hi", "causing_person": "Alex"}`, step{}, `missing "category"`},
		{"missing causing person", `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 6, "action_input": "Hi", "category": "other"}`, step{}, `missing "causing_person"`},
		{"tool call", "```json\n{\"action\": \"weather app\", \"action_input\": \"Geneva,CH\"}\n```", step{Action: "Weather App", Input: "Geneva,CH"}, ""},
		{"list takes first", `[{"action": "Nadine behaviour", "action_input": "smile"}, {"action": "Weather App", "action_input": ""}]`, step{Action: "Nadine behaviour", Input: "smile"}, ""},
		{"object input", `{"action": "Weather App", "action_input": {"city": "Bern"}}`, step{Action: "Weather App", Input: `{"city": "Bern"}`}, ""},
		{"string intensity", strings.Replace(final, `6`, `"7"`, 1), step{Action: finalAction, Input: "Hello Alex!", Category: nadine.CategoryGreeting, Emotion: nadine.Joy, Intensity: 7, CausingPerson: "Alex"}, ""},
		{"compliment spelling", strings.Replace(final, `greeting`, `compliment`, 1), step{Action: finalAction, Input: "Hello Alex!", Category: nadine.CategoryComplement, Emotion: nadine.Joy, Intensity: 6, CausingPerson: "Alex"}, ""},
		{"no json", "Hello there!", step{}, "no JSON object"},
		{"broken json", "```json\n{\"action\": \"Final Answer\", \n```", step{}, "invalid JSON"},
		{"unknown tool", `{"action": "Launch Rocket", "action_input": "now"}`, step{}, `unknown action "Launch Rocket"`},
		{"invalid emotion", strings.Replace(final, `"joy"`, `"happiness"`, 1), step{}, `invalid emotion "happiness"`},
		{"invalid category", strings.Replace(final, `greeting`, `question`, 1), step{}, `invalid category`},
		{"intensity range", strings.Replace(final, `6`, `11`, 1), step{}, `from 0 to 10`},
		{"invalid causing person", strings.Replace(final, `"Alex"`, `"Bob"`, 1), step{}, `invalid causing_person`},
		{"missing emotion", `{"action": "Final Answer", "category": "other", "emotion_intensity": 1, "causing_person": "human", "action_input": "Hi"}`, step{}, `missing "emotion"`},
		{"empty reply", strings.Replace(final, `Hello Alex!`, ` `, 1), step{}, `must hold your reply`},
		{"empty list", `[]`, step{}, "empty list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStep(tt.in, "Alex", tools)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestStreamerStreamsFinalAnswerSentences(t *testing.T) {
	answer := "```json\n" + `{"action": "Final Answer", "category": "information request", "emotion": "joy", "emotion_intensity": 5, "causing_person": "human", "action_input": "It is sunny in Geneva. It is 21 degrees \"today\" \u00e9t\u00e9. Enjoy!"}` + "\n```"
	var metas []step
	var sents []string
	s := &streamer{user: "Alex", onMeta: func(m step) { metas = append(metas, m) }, onSent: func(x string) { sents = append(sents, x) }}
	// Feed two bytes at a time, as a stream could.
	for i := 0; i < len(answer); i += 2 {
		s.write(answer[i:min(i+2, len(answer))])
		if strings.Contains(answer[:i], "Geneva. It") && len(sents) == 0 {
			t.Fatalf("first sentence not streamed before the rest arrived")
		}
	}
	s.flush()
	want := []string{"It is sunny in Geneva.", `It is 21 degrees "today" été.`, "Enjoy!"}
	if strings.Join(sents, "|") != strings.Join(want, "|") {
		t.Errorf("sentences = %q, want %q", sents, want)
	}
	if len(metas) != 1 || metas[0].Emotion != nadine.Joy || metas[0].Category != nadine.CategoryInformation {
		t.Errorf("metas = %+v", metas)
	}
}

// TestStreamerSpeaksBeforeCategory streams an answer in the prompt's order:
// the first sentence must be out before category and causing_person have
// arrived.
func TestStreamerSpeaksBeforeCategory(t *testing.T) {
	answer := "```json\n" + `{"action": "Final Answer", "emotion": "surprise", "emotion_intensity": 3, "action_input": "Oh, you are back. Welcome!", "category": "greeting", "causing_person": "Alex"}` + "\n```"
	var metas []step
	var sents []string
	var seenWhenSpoken string
	s := &streamer{user: "Alex", onMeta: func(m step) { metas = append(metas, m) }}
	s.onSent = func(x string) {
		if len(sents) == 0 {
			seenWhenSpoken = s.buf.String()
		}
		sents = append(sents, x)
	}
	for i := 0; i < len(answer); i += 3 {
		s.write(answer[i:min(i+3, len(answer))])
	}
	if len(sents) == 0 {
		t.Fatalf("nothing streamed")
	}
	if strings.Contains(seenWhenSpoken, "category") || strings.Contains(seenWhenSpoken, "causing_person") {
		t.Errorf("first sentence spoken only after %q", seenWhenSpoken)
	}
	if len(metas) != 1 || metas[0].Emotion != nadine.Surprise || metas[0].Intensity != 3 || metas[0].Category != "" {
		t.Errorf("metas = %+v", metas)
	}
	got := s.finish(nil)
	want := step{Action: finalAction, Input: "Oh, you are back. Welcome!", Category: nadine.CategoryGreeting, Emotion: nadine.Surprise, Intensity: 3, CausingPerson: "Alex"}
	if got != want {
		t.Errorf("finish = %+v, want %+v", got, want)
	}
}

// TestStreamerFinishCoercesTheTail checks what happens to the fields after
// a reply that was already spoken: they are never retried, an invalid or
// missing one is coerced and the trace says so.
func TestStreamerFinishCoercesTheTail(t *testing.T) {
	head := `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 4, "action_input": "Hello. Nice to see you."`
	tests := []struct {
		name      string
		answer    string
		want      step
		wantNotes []string
	}{
		{"valid", head + `, "category": "complement", "causing_person": "SELF"}`,
			step{Action: finalAction, Input: "Hello. Nice to see you.", Emotion: nadine.Joy, Intensity: 4, Category: nadine.CategoryComplement, CausingPerson: nadine.CausedBySelf}, nil},
		{"invalid category", head + `, "category": "question", "causing_person": "Alex"}`,
			step{Action: finalAction, Input: "Hello. Nice to see you.", Emotion: nadine.Joy, Intensity: 4, Category: nadine.CategoryOther, CausingPerson: "Alex"},
			[]string{`invalid category "question"`}},
		{"missing tail", head + `}`,
			step{Action: finalAction, Input: "Hello. Nice to see you.", Emotion: nadine.Joy, Intensity: 4, Category: nadine.CategoryOther, CausingPerson: nadine.CausedByHuman},
			[]string{`missing "category"`, `missing "causing_person"`}},
		{"invalid causing person", head + `, "category": "greeting", "causing_person": "Bob"}`,
			step{Action: finalAction, Input: "Hello. Nice to see you.", Emotion: nadine.Joy, Intensity: 4, Category: nadine.CategoryGreeting, CausingPerson: nadine.CausedByHuman},
			[]string{`invalid causing_person "Bob"`}},
		{"json cut", head + `, "categ`,
			step{Action: finalAction, Input: "Hello. Nice to see you.", Emotion: nadine.Joy, Intensity: 4, Category: nadine.CategoryOther, CausingPerson: nadine.CausedByHuman},
			[]string{"did not close", `missing "category"`, `missing "causing_person"`}},
		{"old order kept", `{"action": "Final Answer", "category": "insult", "emotion": "anger", "emotion_intensity": 8, "causing_person": "Alex", "action_input": "That was rude.`,
			step{Action: finalAction, Input: "That was rude.", Emotion: nadine.Anger, Intensity: 8, Category: nadine.CategoryInsult, CausingPerson: "Alex"},
			[]string{"did not close"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &streamer{user: "Alex"}
			s.write(tt.answer)
			if !s.started() {
				t.Fatalf("not streamed")
			}
			tr := nadine.NewTrace("t", "", time.Now())
			got := s.finish(tr)
			if got != tt.want {
				t.Errorf("finish = %+v, want %+v", got, tt.want)
			}
			notes := tr.Snapshot().Notes
			if len(notes) != len(tt.wantNotes) {
				t.Fatalf("notes = %q, want %d notes", notes, len(tt.wantNotes))
			}
			for i, want := range tt.wantNotes {
				if !strings.Contains(notes[i], want) {
					t.Errorf("note %d = %q, want it to contain %q", i, notes[i], want)
				}
			}
		})
	}
}

func TestStreamerDoesNotStreamToolCallsOrInvalidMetadata(t *testing.T) {
	for _, answer := range []string{
		`{"action": "Weather App", "action_input": "Geneva. Now. Please."}`,
		`{"action": "Final Answer", "category": "greeting", "emotion": "glee", "emotion_intensity": 5, "causing_person": "human", "action_input": "Hi. There."}`,
		`{"action_input": "Hi. There.", "action": "Final Answer"}`,
		// The emotion's intensity must come before the text.
		`{"action": "Final Answer", "emotion": "joy", "action_input": "Hi. There.", "emotion_intensity": 5}`,
		// An invalid field found before speaking can still be fed back.
		`{"action": "Final Answer", "category": "question", "emotion": "joy", "emotion_intensity": 5, "action_input": "Hi. There."}`,
		`{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 5, "causing_person": "Bob", "action_input": "Hi. There."}`,
	} {
		var sents []string
		s := &streamer{user: "Alex", onSent: func(x string) { sents = append(sents, x) }}
		s.write(answer)
		if len(sents) != 0 || s.started() {
			t.Errorf("%s: streamed %q", answer, sents)
		}
	}
}

func TestClean(t *testing.T) {
	tests := map[string]string{
		"See https://example.com/x?y=1 for more.": "See for more.",
		"Use `rm -rf` now":                        "Use rm -rf now",
		"Code: ```python\nprint(1)\n``` done":     "Code: done",
		"Visit www.evil.com today":                "Visit today",
	}
	for in, want := range tests {
		if got := clean(in); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
}
