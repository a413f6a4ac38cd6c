package dialogue_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/spoken"
)

// junkAnswers are unparseable outputs as models and proxies produce them:
// cut JSON, chat-template tokens, error bodies, HTML, empty fences, code,
// nothing, and (echoes) an echo of the engine's own prompt.
var junkAnswers = []string{
	`{"action": "Final Answer", "emot`,
	"<|im_start|>assistant\n<|im_end|>",
	"</s></s></s>",
	`{"error": {"message": "The server had an error while processing your request.", "code": 500}}`,
	"```json\n{}\n```",
	`[{"role": "assistant", "content": ""}]`,
	"<html><body><h1>502 Bad Gateway</h1></body></html>",
	`{"plan": [{"agent": `,
	"",
	"```python\nprint('hello')\n```",
}

// echoes are each engine's prompt, echoed back.
var echoes = map[string][]string{
	"react": {"RESPONSE FORMAT INSTRUCTIONS\nAnswer with exactly one JSON code block, in one of these two formats.",
		"RULES\n- Answer in the first person, as Nadine.\n- Keep your answer to at most two short sentences: it will be spoken aloud."},
	"graph": {"How you answer:\n- Say at most two sentences, as you would speak them: no lists, no markdown, no emojis, and never a URL or a web address.",
		"TIME: Monday, 30 November 2026, 14:05\nYOUR FEELINGS: calm\nMESSAGE: Hello"},
}

// junkMarkers are pieces of the junk above that must never be heard.
var junkMarkers = []string{"{", "}", "<", ">", "```", "|", "RESPONSE FORMAT", "Bad Gateway", "print(", "im_start",
	"two sentences", "exactly one JSON", "error while processing", "YOUR FEELINGS", "first person"}

// TestJunkIsNeverSpoken answers 30% of every model call with junk, for 80
// turns per engine: every turn must be answered (by the model or a
// fallback) and no junk spoken. The issue saw 60 of 200 turns speak junk.
// Each role gets the junk answers in turn, so 80 turns serve every one of
// them to every role (the test checks it); more turns only repeat pairs.
func TestJunkIsNeverSpoken(t *testing.T) {
	turns := 80
	if testing.Short() {
		turns = 40
	}
	speaker := map[string]string{"react": roleAgent, "graph": "response"}
	for _, engine := range []string{"react", "graph"} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel() // each engine has its own rig; nothing times out
			var mu sync.Mutex
			rng := rand.New(rand.NewPCG(12, 30))
			junk := append(slices.Clone(junkAnswers), echoes[engine]...)
			junked, calls := 0, 0
			served := map[string]int{}       // role → junk answers served to it
			got := map[string]map[int]bool{} // role → which of them
			rig := newAnswerRig(t, answerCase{Engine: engine}, func(srv *llmtest.Server) {
				srv.On(func(llmtest.Request) bool {
					calls++ // matchers run under the server's lock
					if rng.Float64() < 0.3 {
						junked++
						return true
					}
					return false
				}).ReplyFunc(func(r llmtest.Request) string {
					mu.Lock()
					defer mu.Unlock()
					i := served[r.Model] % len(junk)
					served[r.Model]++
					if got[r.Model] == nil {
						got[r.Model] = map[int]bool{}
					}
					got[r.Model][i] = true
					return junk[i]
				})
			})
			says := []string{"Hello Nadine!", "How are you?", "What is MIRALab?", "Tell me a joke.", "I like skiing.", "Bye!"}
			fallbacks := 0
			for i := range turns {
				var heard []string
				reply, err := rig.mgr.Stream(context.Background(), nadine.Turn{Text: says[i%len(says)]}, func(e nadine.Event) {
					if e.Kind == nadine.EventSpeech && !e.Filler {
						heard = append(heard, e.Text)
					}
				})
				rig.wait()
				if err != nil || strings.TrimSpace(reply.Text) == "" || len(heard) == 0 {
					t.Fatalf("turn %d not answered: %+v, %v", i, reply, err)
				}
				if reply.Fallback {
					fallbacks++
				}
				for _, s := range heard {
					for _, m := range junkMarkers {
						if strings.Contains(s, m) {
							t.Errorf("turn %d spoke junk: %q", i, s)
						}
					}
					if _, err := spoken.Sentence(s); err != nil {
						t.Errorf("turn %d spoke %q: %v", i, s, err)
					}
				}
			}
			mu.Lock()
			defer mu.Unlock()
			t.Logf("%s: %d turns, %d of %d model calls junk (by role %v), %d turns answered by the fallback engine", engine, turns, junked, calls, served, fallbacks)
			if junked == 0 {
				t.Fatal("no junk was served")
			}
			if _, ok := got[speaker[engine]]; !ok {
				t.Errorf("%s, whose words are spoken, got no junk", speaker[engine])
			}
			for role, seen := range got {
				if len(seen) != len(junk) && !testing.Short() {
					t.Errorf("%s got %d of the %d junk answers: more turns are needed", role, len(seen), len(junk))
				}
			}
		})
	}
}
