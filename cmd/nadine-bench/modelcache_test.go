package main

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/internal/llmtest"
)

// TestServeModelCache: `nadine serve` on an empty model cache trains, answers
// and leaves its models; on a corrupt cache it retrains, answers and replaces
// the files; on a good cache it loads them and rewrites nothing.
func TestServeModelCache(t *testing.T) {
	if testing.Short() {
		t.Skip("starts nadine serve as a child process")
	}
	t.Parallel() // its own children, ports, data and cache directories; it checks no timing
	srv := llmtest.New(t, llmtest.WithAPIKey("k"))
	scriptCanary(srv)
	cache := t.TempDir()
	models := filepath.Join(cache, "nadine", "models")
	serveOnce := func(step string) map[string]os.FileInfo {
		t.Helper()
		c := startChildServe(t, "react", srv.URL(), "XDG_CACHE_HOME="+cache)
		status, body := c.api(t, "POST", "/api/turns", `{"text":"Hello, nice to meet you"}`)
		if status != http.StatusOK || !strings.Contains(body, "Nice to see you.") {
			t.Fatalf("%s: POST /api/turns: %d %s\n%s", step, status, body, c.logs.String())
		}
		c.stopTerm(t)
		entries, err := os.ReadDir(models)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		files := map[string]os.FileInfo{}
		for _, e := range entries {
			info, err := e.Info()
			if err != nil {
				t.Fatal(err)
			}
			files[e.Name()[:strings.LastIndex(e.Name(), "-")]] = info // the name before "-<key>.model"
		}
		return files
	}

	cold := serveOnce("empty cache")
	for _, name := range []string{"offline", "backstage-1", "backstage-2"} {
		if cold[name] == nil || cold[name].Size() < 1000 {
			t.Fatalf("empty cache: no model %s stored: %v", name, cold)
		}
	}
	if len(cold) != 3 {
		t.Errorf("empty cache: %d files, want the 3 models: %v", len(cold), cold)
	}

	warm := serveOnce("warm cache")
	for name, info := range cold {
		if w := warm[name]; w == nil || !w.ModTime().Equal(info.ModTime()) {
			t.Errorf("warm cache: %s was rewritten (trained again) or removed", name)
		}
	}

	garbage := []byte("NDIM\x01 not a model, a half-written file")
	for _, info := range cold {
		if err := os.WriteFile(filepath.Join(models, info.Name()), garbage, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	fixed := serveOnce("corrupt cache")
	for name, info := range cold {
		b, err := os.ReadFile(filepath.Join(models, info.Name()))
		if err != nil || bytes.Equal(b, garbage) || int64(len(b)) != info.Size() || fixed[name] == nil {
			t.Errorf("corrupt cache: %s not replaced by the retrained model (%d bytes, want %d): %v", name, len(b), info.Size(), err)
		}
	}
}
