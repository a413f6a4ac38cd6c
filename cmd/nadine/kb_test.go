package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/internal/llmtest"
)

// TestKnowledgeBaseKeepsWhatItWasGiven goes through a lab's use of the
// knowledge base: an ingested folder is recorded, ingesting it again
// changes nothing, a changed file replaces its chunks, and a rebuild after
// changing the embedder keeps the ingested documents, even once their
// folder is gone.
func TestKnowledgeBaseKeepsWhatItWasGiven(t *testing.T) {
	vars := map[string]string{"HOME": t.TempDir()}
	must := func(args ...string) string {
		t.Helper()
		out, errOut, err := runNadine(t, vars, "", args...)
		if err != nil {
			t.Fatalf("nadine %v: %v\n%s", args, err, errOut)
		}
		return out
	}
	// An error comes alone, before any count.
	out, _, err := runNadine(t, vars, "", "kb", "ingest", "/nonexistent")
	if err == nil || !strings.Contains(err.Error(), "does not exist") || out != "" {
		t.Errorf("kb ingest /nonexistent: %v, printed %q", err, out)
	}

	kb := filepath.Join(t.TempDir(), "kb")
	writeKB := func(name, body string) {
		t.Helper()
		if err := os.MkdirAll(kb, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(kb, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeKB("zorblax.md", "# Zorblax\n\n## Origin\n\nThe Zorblax is a fictional pastry from Carouge.\n")
	writeKB("hours.txt", "The museum opens at ten.\n")
	if out := must("kb", "ingest", kb); !strings.Contains(out, "ingested 2 chunks from "+kb+": 2 files, 2 new, 0 changed, 0 unchanged") {
		t.Errorf("kb ingest:\n%s", out)
	}
	if out := must("kb", "ingest", kb); !strings.Contains(out, "ingested 0 chunks from "+kb+": 2 files, 0 new, 0 changed, 2 unchanged") {
		t.Errorf("kb ingest of the same folder:\n%s", out)
	}
	writeKB("hours.txt", "The museum opens at nine.\n")
	if out := must("kb", "ingest", "--k", "1", kb); !strings.Contains(out, "1 changed, 1 unchanged") {
		t.Errorf("kb ingest after a change:\n%s", out)
	}
	if out := must("kb", "search", "when", "does", "the", "museum", "open"); !strings.Contains(out, "at nine") || strings.Contains(out, "at ten") {
		t.Errorf("kb search after the change:\n%s", out)
	}
	out = must("kb", "sources")
	for _, want := range []string{filepath.Join(kb, "zorblax.md"), filepath.Join(kb, "hours.txt"), "default/", "built-in", "lexical-v1"} {
		if !strings.Contains(out, want) {
			t.Errorf("kb sources lacks %q:\n%s", want, out)
		}
	}

	// One document removed on its own: gone from the sources and from
	// search, the other kept; a name that is no document is an error.
	writeKB("leaflet.md", "# Leaflet\n\nThe Zorblax leaflet is printed in Carouge.\n")
	must("kb", "ingest", kb)
	if out := must("kb", "remove", "leaflet.md"); !strings.Contains(out, "removed "+filepath.Join(kb, "leaflet.md")) {
		t.Errorf("kb remove:\n%s", out)
	}
	if out := must("kb", "sources"); strings.Contains(out, "leaflet.md") || !strings.Contains(out, "zorblax.md") {
		t.Errorf("kb sources after the removal:\n%s", out)
	}
	if out := must("kb", "search", "Zorblax", "leaflet", "printed"); strings.Contains(out, "leaflet is printed") {
		t.Errorf("kb search still finds the removed document:\n%s", out)
	}
	if _, _, err := runNadine(t, vars, "", "kb", "remove", "nothing.md"); err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "no document") {
		t.Errorf("kb remove of no document: %v", err)
	}
	if err := os.Remove(filepath.Join(kb, "leaflet.md")); err != nil {
		t.Fatal(err)
	}

	// The folder goes away, the embedder changes: the rebuild keeps all.
	if err := os.RemoveAll(kb); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t)
	vars["OPENAI_API_KEY"] = "sk-test"
	vars["OPENAI_BASE_URL"] = srv.URL()
	if out := must("kb", "rebuild"); !strings.Contains(out, "embedded by openai:text-embedding-3-large") {
		t.Errorf("kb rebuild:\n%s", out)
	}
	out = must("kb", "sources")
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, filepath.Join(kb, "zorblax.md")) && !strings.Contains(line, "openai:text-embedding-3-large") {
			t.Errorf("the ingested file was not re-embedded: %s", line)
		}
	}
	if !strings.Contains(out, filepath.Join(kb, "zorblax.md")) || !strings.Contains(out, filepath.Join(kb, "hours.txt")) {
		t.Errorf("kb rebuild dropped the ingested documents:\n%s", out)
	}
	// Every document is in the new embedder's space, and in the lexical
	// one the offline engine searches: the same sections, in two spaces.
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		if !strings.Contains(line, "openai:text-embedding-3-large,lexical-v1") && !strings.Contains(line, "lexical-v1-512,openai:text-embedding-3-large") {
			t.Errorf("a source not in the model's and the offline engine's spaces: %s", line)
		}
	}
}

func TestKBUsage(t *testing.T) {
	for _, args := range [][]string{{"kb"}, {"kb", "ingest"}, {"kb", "search"}, {"kb", "rebuild", "now"}, {"kb", "sorces"}, {"kb", "remove"}} {
		_, _, err := runNadine(t, nil, "", args...)
		if err == nil || exitCode(err) != 2 {
			t.Errorf("nadine %v: %v, want a usage error", args, err)
		}
	}
	if _, _, err := runNadine(t, nil, "", "kb", "sorces"); err == nil || !strings.Contains(err.Error(), "did you mean sources?") {
		t.Errorf("kb sorces: %v", err)
	}
}
