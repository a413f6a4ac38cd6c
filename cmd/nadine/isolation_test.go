package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/config"
	"github.com/nadine-robot/nadine/internal/llmtest"
)

// isolationPeople is how many people the isolation test has talk to Nadine:
// 12 overflow the history window (20 messages, five first visits) and the
// memory search (5 hits) more than twice over; more reach no other branch.
const isolationPeople = 12

var (
	factRE = regexp.MustCompile(`FACT(\d{3})X`) // a person's secret fact
	tagRE  = regexp.MustCompile(`\[T(\d{4})\]`) // the turn an utterance belongs to
)

// scriptIsolation scripts a model per role (the model is the role's name)
// the way real models answer, echoing nothing they were not told in the
// turn's own input: the graph's memory update extracts the fact of the
// latest message as a hobby, its episode summary quotes the fact of the
// transcript.
func scriptIsolation(srv *llmtest.Server) {
	latest := func(s string) string {
		if i := strings.LastIndex(s, "LATEST MESSAGE:"); i >= 0 {
			return s[i:]
		}
		return s
	}
	srv.On(llmtest.MatchModel("contextualizer")).ReplyFunc(func(r llmtest.Request) string { return r.LastUser() })
	srv.On(llmtest.MatchModel("react_agent")).Reply("```json\n{\"action\": \"Final Answer\", \"emotion\": \"joy\", \"emotion_intensity\": 4, " +
		"\"action_input\": \"Nice to see you.\", \"category\": \"greeting\", \"causing_person\": \"human\"}\n```")
	srv.On(llmtest.MatchModel("intent_classifier")).ReplyFunc(func(r llmtest.Request) string {
		switch last := r.LastUser(); {
		case strings.Contains(last, "Bye"):
			return "end_conversation"
		case strings.Contains(last, "code word is"):
			return "update_user_info"
		}
		return "continue_conversation"
	})
	srv.On(llmtest.MatchModel("memory_update")).ReplyFunc(func(r llmtest.Request) string {
		if strings.Contains(r.System(), "episodic memory") {
			f := factRE.FindString(r.LastUser())
			return `{"observation": "The person said their code word is ` + f + `.", "thought": "Nadine will keep it.", "action": "Nadine listened.", "result": "They said goodbye."}`
		}
		var hobbies []string
		if f := factRE.FindString(latest(r.LastUser())); f != "" {
			hobbies = append(hobbies, "collecting "+f)
		}
		return fmt.Sprintf(`{"user_name": "", "current_company": "", "current_position": "", "location": "", "hobbies": %s, "interests": []}`, jsonList(hobbies))
	})
	srv.On(llmtest.MatchModel("appraisal")).Reply("joy 3")
	srv.On(llmtest.MatchModel("orchestrator")).Reply(`{"plan": []}`)
	srv.On(llmtest.MatchModel("context_summary")).Reply("The person and Nadine are chatting.")
	srv.On(llmtest.MatchModel("response")).Reply("Nice to see you.")
}

func jsonList(xs []string) string {
	if len(xs) == 0 {
		return "[]"
	}
	return `["` + strings.Join(xs, `", "`) + `"]`
}

// isolationApp wires the real program (store, history, engines, dialogue
// manager) for one engine against the scripted server.
func isolationApp(t *testing.T, srv *llmtest.Server, engine string) (*app, func()) {
	t.Helper()
	profiles, roles := map[string]any{}, map[string]string{}
	for _, r := range config.RoleNames() {
		profiles[r] = map[string]any{"base_url": srv.URL(), "model": r, "api_key_env": "ISOLATION_KEY", "max_retries": 0, "timeout": "10s"}
		roles[r] = r
	}
	dir := t.TempDir()
	b, err := yaml.Marshal(map[string]any{"engine": engine, "data_dir": dir, "models": map[string]any{"profiles": profiles, "roles": roles},
		"embeddings": map[string]any{"provider": "openai", "dimensions": 64}, "features": map[string]any{"speculate": false}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "nadine.yaml")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	getenv := envMap(map[string]string{"HOME": dir, "ISOLATION_KEY": "k"})
	cfg, err := config.Load(path, getenv)
	if err != nil {
		t.Fatal(err)
	}
	a, err := newApp(context.Background(), cfg, getenv, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	closeApp := func() { once.Do(func() { a.Close() }) }
	t.Cleanup(closeApp)
	if a.engine != engine {
		t.Fatalf("engine %s, want %s", a.engine, engine)
	}
	return a, closeApp
}

// TestNoPersonReachesAnotherPersonsPrompt: 12 people, each with a secret
// fact, talk to Nadine on each engine, leave, and come back; read from the
// scripted server's request log, no prompt holds another person's fact or
// words, and each person's own fact is recalled on their return.
func TestNoPersonReachesAnotherPersonsPrompt(t *testing.T) {
	if testing.Short() {
		t.Skip("12 people through both engines")
	}
	t.Parallel() // in-process, no timing: it runs beside the rest of the package
	for _, engine := range []string{"react", "graph"} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.New(t)
			scriptIsolation(srv)
			a, closeApp := isolationApp(t, srv, engine)
			ctx := context.Background()
			var mu sync.Mutex
			owner := map[int]int{} // turn tag → person
			tag := 0
			say := func(person int, text string) {
				t.Helper()
				mu.Lock()
				tag++
				owner[tag] = person
				text = fmt.Sprintf("[T%04d] %s", tag, text)
				mu.Unlock()
				if _, err := a.manager.ProcessInput(ctx, nadine.Turn{Text: text}); err != nil {
					t.Fatal(err)
				}
			}
			returns := map[int]int{} // person → the tag of their return
			for p := range isolationPeople {
				if _, err := a.manager.SetUser(ctx, nadine.UserRef{ID: fmt.Sprintf("visitor-%03d", p), Name: fmt.Sprintf("Visitor%03d", p)}); err != nil {
					t.Fatal(err)
				}
				say(p, fmt.Sprintf("Hello, I am Visitor%03d and my code word is FACT%03dX.", p, p))
				say(p, "Bye Nadine, see you!")
				if _, err := a.manager.EndInteraction(ctx, "left"); err != nil {
					t.Fatal(err)
				}
			}
			for p := range isolationPeople {
				if _, err := a.manager.SetUser(ctx, nadine.UserRef{ID: fmt.Sprintf("visitor-%03d", p), Name: fmt.Sprintf("Visitor%03d", p)}); err != nil {
					t.Fatal(err)
				}
				say(p, "Hi again, do you remember my code word?")
				returns[p] = tag
				if _, err := a.manager.EndInteraction(ctx, "left"); err != nil {
					t.Fatal(err)
				}
			}
			closeApp() // waits for the engines' background work

			leaks, untagged, chats := 0, 0, 0
			recalled := map[int]bool{}
			for _, r := range srv.ChatRequests() {
				chats++
				var text strings.Builder
				for _, m := range r.Messages {
					text.WriteString(m.Content + "\n")
				}
				s := text.String()
				tags := tagRE.FindAllStringSubmatch(s, -1)
				if len(tags) == 0 {
					untagged++
					t.Errorf("a %s prompt carries no turn: %.300q", r.Model, s)
					continue
				}
				last := 0
				for _, m := range tags {
					n, _ := strconv.Atoi(m[1])
					last = max(last, n)
				}
				me := owner[last]
				for _, m := range tags {
					n, _ := strconv.Atoi(m[1])
					if owner[n] != me {
						leaks++
						t.Errorf("a %s prompt of person %d holds the words of person %d (turn %d)", r.Model, me, owner[n], n)
					}
				}
				for _, m := range factRE.FindAllStringSubmatch(s, -1) {
					n, _ := strconv.Atoi(m[1])
					if n != me {
						leaks++
						t.Errorf("a %s prompt of person %d holds the fact of person %d:\n%.600s", r.Model, me, n, s)
					} else if last == returns[me] {
						// The return's words hold no fact: it came from memory.
						recalled[me] = true
					}
				}
			}
			t.Logf("%s: %d people, %d chat requests, %d prompts with another person's fact or words, %d recalled their own fact on return",
				engine, isolationPeople, chats, leaks, len(recalled))
			if leaks > 0 || untagged > 0 {
				t.Errorf("%d leaks, %d untagged prompts", leaks, untagged)
			}
			if len(recalled) != isolationPeople {
				t.Errorf("%d of %d people had their own fact in a prompt on their return: the test does not reach memory", len(recalled), isolationPeople)
			}
		})
	}
}
