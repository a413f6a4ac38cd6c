package main

import (
	"net"
	"strings"
	"testing"

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
	if r.Text != "Hello! I am Nadine. Nice to meet you." || d.Engine != "react" || r.Fallback {
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
