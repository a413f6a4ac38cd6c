package react

import (
	"strings"
	"testing"

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

func TestStreamerDoesNotStreamToolCallsOrInvalidMetadata(t *testing.T) {
	for _, answer := range []string{
		`{"action": "Weather App", "action_input": "Geneva. Now. Please."}`,
		`{"action": "Final Answer", "category": "greeting", "emotion": "glee", "emotion_intensity": 5, "causing_person": "human", "action_input": "Hi. There."}`,
		`{"action_input": "Hi. There.", "action": "Final Answer"}`,
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
