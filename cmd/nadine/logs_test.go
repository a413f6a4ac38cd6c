package main

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/internal/llmtest"
)

// TestLogsCarryNoConversation: at level info the turn line keeps the
// engine, durations and counts, and a failing engine's error keeps its
// cause, but no line holds what was said, what the model wrote or who
// spoke (the user id, made from a canary name, is "[person]"); with
// log.content (or at level debug) the turn line has both.
func TestLogsCarryNoConversation(t *testing.T) {
	const secret, name = "PIN 4242", "Robin Quokkaberg"
	const person = "quokkaberg" // in the user id made from the name
	srv := llmtest.New(t, llmtest.WithAPIKey("sk-test-secret-0000"))
	// The agent answers with an action named after the secret, every time:
	// the parse errors quote it, the engine fails, the offline engine answers.
	srv.On(llmtest.MatchLastUser(secret)).Reply("```json\n{\"action\": \"Remember " + secret + "\", \"action_input\": \"" + secret + "\"}\n```")
	for _, tt := range []struct {
		name string
		env  map[string]string
		want int // lines holding the secret
	}{
		{"info", map[string]string{"NADINE_LOG_LEVEL": "info"}, 0},
		{"info, json", map[string]string{"NADINE_LOG_LEVEL": "info", "NADINE_LOG_FORMAT": "json"}, 0},
		{"log.content", map[string]string{"NADINE_LOG_LEVEL": "info", "NADINE_LOG_CONTENT": "true"}, 2},
		{"debug", map[string]string{"NADINE_LOG_LEVEL": "debug"}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, logs, err := runNadine(t, modelEnv(t, srv, tt.env), "Remember my "+secret+"\n", "chat", "--json", "-v", "--user", name)
			if err != nil {
				t.Fatal(err)
			}
			var turn, failed string
			held, who := 0, 0
			for _, l := range strings.Split(logs, "\n") {
				switch {
				case strings.Contains(l, "engine failed"):
					failed = l
				case strings.Contains(l, `msg=turn`) || strings.Contains(l, `"msg":"turn"`):
					turn = l
				}
				if strings.Contains(l, secret) {
					held++
				}
				if strings.Contains(strings.ToLower(l), person) {
					who++
				}
			}
			if turn == "" || failed == "" {
				t.Fatalf("no turn line or no engine failure in the logs:\n%s", logs)
			}
			for _, want := range []string{"[person]", "engine", "elapsed", "model_calls", "chars]"} {
				if tt.want == 0 && !strings.Contains(turn, want) {
					t.Errorf("the turn line lacks %q: %s", want, turn)
				}
			}
			if !strings.Contains(failed, "unusable answers") || !strings.Contains(failed, "unknown action") {
				t.Errorf("the engine failure lost its cause: %s", failed)
			}
			if held < tt.want || (tt.want == 0 && held > 0) {
				t.Errorf("%d log lines hold the secret, want %d:\n%s", held, tt.want, logs)
			}
			if (tt.want == 0 && who > 0) || (tt.want > 0 && !strings.Contains(turn, "user=robin-"+person)) {
				t.Errorf("%d log lines name the person; the turn line: %s\nlogs:\n%s", who, turn, logs)
			}
		})
	}
}
