package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/internal/llmtest"
)

// TestMemoryAndKnowledgeCommands goes through the commands a lab uses to
// look after Nadine's memory, on one data directory.
func TestMemoryAndKnowledgeCommands(t *testing.T) {
	t.Parallel() // its own data directory
	vars := map[string]string{"HOME": t.TempDir()}
	must := func(stdin string, args ...string) string {
		t.Helper()
		out, errOut, err := runNadine(t, vars, stdin, args...)
		if err != nil {
			t.Fatalf("nadine %v: %v\n%s", args, err, errOut)
		}
		return out
	}
	// Alex introduces themself and leaves: the conversation is stored.
	must("Hello, my name is Alex\nI love skiing\n/bye\n/quit\n", "chat")
	if out := must("", "memory", "users"); !strings.Contains(out, "Alex") {
		t.Fatalf("memory users:\n%s", out)
	}
	if out := must("", "memory", "show", "alex"); !strings.Contains(out, "1 memories") || !strings.Contains(out, "Alex: I love skiing") {
		t.Errorf("memory show:\n%s", out)
	}

	kb := t.TempDir()
	if err := os.WriteFile(filepath.Join(kb, "zorblax.md"), []byte("# Zorblax\n\n## Origin\n\nThe Zorblax is a fictional pastry from Carouge.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := must("", "kb", "ingest", kb); !strings.Contains(out, "ingested 1 chunks") {
		t.Errorf("kb ingest:\n%s", out)
	}
	if out := must("", "kb", "search", "what", "is", "a", "zorblax", "pastry"); !strings.Contains(strings.SplitN(out, "\n", 2)[0], "zorblax.md") {
		t.Errorf("kb search did not rank the ingested file first:\n%s", out)
	}

	// Switching to a model embedder: memories are re-embedded on demand,
	// the knowledge base rebuilt.
	srv := llmtest.New(t)
	vars["OPENAI_API_KEY"] = "sk-test"
	vars["OPENAI_BASE_URL"] = srv.URL()
	_, logs, err := runNadine(t, vars, "", "memory", "users")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs, "nadine memory reembed") || !strings.Contains(logs, "nadine kb rebuild") {
		t.Errorf("a changed embedder was not reported:\n%s", logs)
	}
	if out := must("", "memory", "reembed"); !strings.Contains(out, "re-embedded 1 memories with openai:text-embedding-3-large") {
		t.Errorf("memory reembed:\n%s", out)
	}
	if out := must("", "kb", "rebuild"); !strings.Contains(out, "embedded by openai:text-embedding-3-large") {
		t.Errorf("kb rebuild:\n%s", out)
	}
	if _, logs, _ = runNadine(t, vars, "", "memory", "users"); strings.Contains(logs, "reembed") || strings.Contains(logs, "rebuild") {
		t.Errorf("still reported after re-embedding:\n%s", logs)
	}

	if out := must("", "memory", "forget", "Alex"); !strings.Contains(out, "forgot") {
		t.Errorf("memory forget:\n%s", out)
	}
	if out := must("", "memory", "users"); strings.Contains(out, "Alex") {
		t.Errorf("Alex still known after forget:\n%s", out)
	}
	if _, _, err := runNadine(t, vars, "", "memory", "show", "Alex"); err == nil || !strings.Contains(err.Error(), "no user") {
		t.Errorf("show after forget: %v", err)
	}
}
