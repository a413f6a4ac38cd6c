package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
)

// runNadine runs the real program in-process with the given environment
// and standard input, and returns standard output.
func runNadine(t *testing.T, vars map[string]string, stdin string, args ...string) (string, string, error) {
	t.Helper()
	if vars == nil {
		vars = map[string]string{}
	}
	if vars["HOME"] == "" {
		vars["HOME"] = t.TempDir()
	}
	var out, errOut bytes.Buffer
	e := env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: envMap(vars), environ: environList(vars)}
	err := run(context.Background(), args, e)
	return out.String(), errOut.String(), err
}

func decodeTurns(t *testing.T, out string) []chatTurn {
	t.Helper()
	var turns []chatTurn
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var c chatTurn
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("invalid JSON line %q: %v", line, err)
		}
		turns = append(turns, c)
	}
	return turns
}

// TestChatJSONOffline is the README's promise: no network, no key.
func TestChatJSONOffline(t *testing.T) {
	out, _, err := runNadine(t, nil, "Hello\nWhat time is it?\n", "chat", "--json")
	if err != nil {
		t.Fatal(err)
	}
	turns := decodeTurns(t, out)
	if len(turns) != 2 {
		t.Fatalf("want exactly 2 JSON objects, got %d:\n%s", len(turns), out)
	}
	if r := turns[0].Reply; r == nil || r.Trace == nil || r.Trace.Engine != "offline" || !strings.Contains(r.Text, "Hello") {
		t.Errorf("turn 1 = %+v", turns[0])
	}
	if r := turns[1].Reply; r == nil || !strings.Contains(r.Text, "It is") {
		t.Errorf("turn 2 = %+v", turns[1])
	}
}

func TestChatREPLOffline(t *testing.T) {
	home := t.TempDir()
	out, _, err := runNadine(t, map[string]string{"HOME": home}, "Hello, my name is Alex\nWhat time is it?\n/trace\n/lang fr\n/quit\n", "chat")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"OFFLINE", "Alex", "wave", "It is", "engine offline", "language: French (fr-FR)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The name persists across runs.
	out, _, err = runNadine(t, map[string]string{"HOME": home}, "Do you remember me?\n", "chat", "--json", "--user", "alex")
	if err != nil {
		t.Fatal(err)
	}
	if turns := decodeTurns(t, out); !strings.Contains(turns[0].Reply.Text, "Alex") {
		t.Errorf("not remembered across runs: %+v", turns[0].Reply)
	}
}

func modelEnv(t *testing.T, srv *llmtest.Server, extra map[string]string) map[string]string {
	vars := map[string]string{
		"HOME": t.TempDir(), "OPENAI_API_KEY": "sk-test-secret-0000", "OPENAI_BASE_URL": srv.URL(),
		"NADINE_MODELS_PROFILES_DEFAULT_TIMEOUT": "2s",
	}
	for k, v := range extra {
		vars[k] = v
	}
	return vars
}

// finalHello is a final answer of three sentences; the speech budget
// (speech.max_sentences: 2) says the first two, and the reply is what was
// said (helloSaid).
const finalHello = "```json\n{\"action\": \"Final Answer\", \"category\": \"greeting\", \"emotion\": \"joy\", \"emotion_intensity\": 6, \"causing_person\": \"human\", \"action_input\": \"Hello! I am Nadine. Nice to meet you.\"}\n```"

// helloSaid is what Nadine says of finalHello: two sentences.
const helloSaid = "Hello! I am Nadine."

func TestChatWithModel(t *testing.T) {
	srv := llmtest.New(t, llmtest.WithAPIKey("sk-test-secret-0000"))
	srv.On(llmtest.MatchLastUser("HUMAN'S INPUT\nHello")).Reply(finalHello)
	out, errOut, err := runNadine(t, modelEnv(t, srv, map[string]string{"NADINE_LOG_LEVEL": "debug"}), "Hello\n", "chat", "--json", "-v")
	if err != nil {
		t.Fatal(err)
	}
	r := decodeTurns(t, out)[0].Reply
	if r.Text != helloSaid || r.Trace.Engine != "react" || r.Fallback || len(r.Gestures) != 1 {
		t.Errorf("reply = %+v", r)
	}
	calls := r.Trace.Snapshot().ModelCalls
	if len(calls) == 0 || calls[len(calls)-1].Role != "react_agent" || calls[len(calls)-1].Model != "gpt-5.4-mini" || calls[len(calls)-1].PromptTokens == 0 {
		t.Errorf("model calls = %+v", calls)
	}
	for _, s := range []string{out, errOut} {
		if strings.Contains(s, "sk-test-secret-0000") {
			t.Errorf("API key leaked into output or logs")
		}
	}
}

// TestModelFailuresFallBack: whatever the model does, the user hears a
// sentence and the trace says why. Each attempt is its own model call in
// the trace (the failover layer retries, not the client).
func TestModelFailuresFallBack(t *testing.T) {
	tests := []struct {
		name     string
		timeout  string
		script   func(*llmtest.Server)
		code     string
		fallback bool
		attempts int
	}{
		{"hang", "300ms", func(s *llmtest.Server) { s.On(llmtest.MatchModel("gpt-5.4-mini")).Hang() }, "unavailable", true, 1},
		{"garbage", "2s", func(s *llmtest.Server) { s.On(llmtest.MatchModel("gpt-5.4-mini")).Garbage() }, "bad_output", true, 1},
		{"500 then success", "5s", func(s *llmtest.Server) {
			s.On(llmtest.MatchModel("gpt-5.4-mini")).Once().Fail(500)
			s.On(llmtest.MatchModel("gpt-5.4-mini")).Reply(finalHello)
		}, "", false, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			tt.script(srv)
			out, _, err := runNadine(t, modelEnv(t, srv, map[string]string{
				"NADINE_MODELS_PROFILES_DEFAULT_TIMEOUT": tt.timeout, "NADINE_MODELS_PROFILES_DEFAULT_MAX_RETRIES": "1"}),
				"Hello\n", "chat", "--json")
			if err != nil {
				t.Fatal(err)
			}
			r := decodeTurns(t, out)[0].Reply
			if r == nil || strings.TrimSpace(r.Text) == "" {
				t.Fatalf("no reply: %s", out)
			}
			d := r.Trace.Snapshot()
			if r.Fallback != tt.fallback {
				t.Errorf("fallback = %v, want %v (engine %s)", r.Fallback, tt.fallback, d.Engine)
			}
			if tt.fallback {
				if d.Engine != "offline" || len(d.Failures) == 0 || d.Failures[0].Code != tt.code {
					t.Errorf("engine %s, failures %+v; want offline and %s", d.Engine, d.Failures, tt.code)
				}
			}
			var agent []nadine.ModelCall
			for _, c := range d.ModelCalls {
				if c.Role == "react_agent" {
					agent = append(agent, c)
				}
			}
			if len(agent) != tt.attempts {
				t.Fatalf("agent calls = %+v, want %d attempts", agent, tt.attempts)
			}
			for i, c := range agent {
				if wantErr := i < len(agent)-1 || tt.fallback; c.Attempts != 1 || wantErr != (c.Error != "") {
					t.Errorf("agent attempt %d = %+v, want one attempt, failed unless it is the answer", i, c)
				}
			}
		})
	}
}

func TestUnknownCommand(t *testing.T) {
	_, _, err := runNadine(t, nil, "", "fly")
	if err == nil || exitCode(err) != 2 {
		t.Errorf("err = %v, want a usage error", err)
	}
}

func TestEvalCommand(t *testing.T) {
	srv := llmtest.New(t)
	srv.Default().Reply("continue_conversation")
	out, _, err := runNadine(t, modelEnv(t, srv, nil), "", "eval", "intent")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "intent") || !strings.Contains(out, "%") || !strings.Contains(out, "gpt-5.4-mini") {
		t.Errorf("eval output:\n%s", out)
	}
	// Without any model the command says why instead of printing zeros.
	if _, _, err := runNadine(t, nil, "", "eval"); err == nil || !strings.Contains(err.Error(), "no model") {
		t.Errorf("eval offline: err = %v", err)
	}
}
