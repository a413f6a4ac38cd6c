package main

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/config"
	"github.com/nadine-robot/nadine/internal/llmtest"
)

// closedURL returns the base URL of a port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}

// TestFallbackProfileIsAskedByTheSameEngine: the role's profile is down;
// the same engine (react, not a second instance, not offline) gets its
// answer from the fallback profile, and the trace says so.
func TestFallbackProfileIsAskedByTheSameEngine(t *testing.T) {
	srv := llmtest.New(t)
	srv.On(llmtest.MatchModel("backup-model")).Reply(finalHello)
	out, _, err := runNadine(t, map[string]string{
		"OPENAI_API_KEY": "sk-test-secret-0000", "OPENAI_BASE_URL": closedURL(t),
		"NADINE_MODELS_PROFILES_BIG_BASE_URL": srv.URL(), "NADINE_MODELS_PROFILES_BIG_MODEL": "backup-model",
		"NADINE_MODELS_FALLBACK": "big",
	}, "Hello\n", "chat", "--json")
	if err != nil {
		t.Fatal(err)
	}
	r := decodeTurns(t, out)[0].Reply
	d := r.Trace.Snapshot()
	if r.Text != helloSaid || d.Engine != "react" || r.Fallback {
		t.Fatalf("reply %q by %s (fallback %v), want the model's by react", r.Text, d.Engine, r.Fallback)
	}
	asked := false
	for _, s := range d.Steps {
		asked = asked || (s.Name == "failover:react_agent" && strings.Contains(s.Detail, "asking profile big"))
	}
	if !asked {
		t.Errorf("steps = %+v, want the move to profile big", d.Steps)
	}
	var profiles []string
	for _, c := range d.ModelCalls {
		if c.Role == "react_agent" {
			profiles = append(profiles, c.Profile)
		}
	}
	if strings.Join(profiles, ",") != "default,big" {
		t.Errorf("react_agent calls on profiles %v, want default then big", profiles)
	}
}

// TestWarmUpWakesEachChatProfile: with models.warm_up, each profile a chat
// role uses gets one tiny request at start, straight to its client (a
// local server loading a model may take longer than a role's attempt
// timeout); a profile used only for embeddings gets none.
func TestWarmUpWakesEachChatProfile(t *testing.T) {
	srv := llmtest.New(t)
	srv.Default().Reply("Hello")
	u := srv.URL()
	path := writeConfig(t, `
engine: graph
models:
  profiles:
    small: {base_url: "`+u+`", model: small-model}
    big: {base_url: "`+u+`", model: big-model}
    embed: {base_url: "`+u+`", model: embed-model}
  roles: {intent_classifier: small, appraisal: small, response: big, embeddings: embed}
  warm_up: true
http: {addr: "off"}
`)
	cfg, err := config.Load(path, envMap(map[string]string{"HOME": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	a, err := newApp(t.Context(), cfg, envMap(nil), newLogger(io.Discard, config.LogConfig{Level: "error"}))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	warmed := func() map[string]int {
		got := map[string]int{}
		for _, r := range srv.ChatRequests() {
			if r.MaxTokens == 1 || r.MaxCompletionTokens == 1 {
				got[r.Model]++
			}
		}
		return got
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(warmed()) < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := warmed(); got["small-model"] != 1 || got["big-model"] != 1 || got["embed-model"] != 0 {
		t.Errorf("warm-up requests by model = %v, want one each for small-model and big-model", got)
	}
}

// TestPersistent500OpensEveryBreaker: behind a proxy that answers HTTP 500
// to everything, with every role on its own profile of that server (as in
// nadine bench), both engines stop asking it by the third turn: from then
// on no request of the turn reaches the server and nothing waits for a
// retry; the offline engine answers every turn.
func TestPersistent500OpensEveryBreaker(t *testing.T) {
	t.Parallel() // its own serve and model server
	for _, engine := range []string{"react", "graph"} {
		t.Run(engine, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.Default().Reply(finalHello)
			srv.InjectFaults(llmtest.FaultPlan{Error500: 1, Embeddings: true})
			vars := map[string]string{"NADINE_ENGINE": engine, "NADINE_HTTP_ADDR": "off", "NADINE_EMBEDDINGS_PROVIDER": "openai"}
			for _, r := range config.RoleNames() {
				up := strings.ToUpper(r)
				vars["NADINE_MODELS_PROFILES_"+up+"_BASE_URL"] = srv.URL()
				vars["NADINE_MODELS_PROFILES_"+up+"_MODEL"] = r
				vars["NADINE_MODELS_ROLES_"+up] = r
			}
			lines := []string{"Hello", "How are you?", "What is your name?", "Tell me about Geneva.", "And what about it?", "Thank you"}
			out, _, err := runNadine(t, vars, strings.Join(lines, "\n")+"\n", "chat", "--json")
			if err != nil {
				t.Fatal(err)
			}
			turns := decodeTurns(t, out)
			if len(turns) != len(lines) {
				t.Fatalf("%d turns, want %d", len(turns), len(lines))
			}
			for i, turn := range turns {
				d := turn.Reply.Trace.Snapshot()
				var retries []string
				for _, s := range d.Steps {
					if strings.Contains(s.Detail, "retrying in") {
						retries = append(retries, s.Name+": "+s.Detail)
					}
				}
				t.Logf("turn %d: %s answered; %d requests reached the server, %d retries", i+1, d.Engine, len(d.ModelCalls), len(retries))
				if d.Engine != "offline" {
					t.Errorf("turn %d answered by %s, want offline", i+1, d.Engine)
				}
				if i >= 2 && (len(d.ModelCalls) > 0 || len(retries) > 0) {
					t.Errorf("turn %d: %d requests reached the dead server, retries %v; want none from the third turn", i+1, len(d.ModelCalls), retries)
				}
			}
		})
	}
}
