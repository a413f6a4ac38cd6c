package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMain gives the run its own model cache, removed at the end: the tests
// leave nothing in the user's, and what one test trains the others load.
// GOCACHE is pinned first, so go commands keep their build cache.
func TestMain(m *testing.M) {
	if os.Getenv("GOCACHE") == "" {
		out, err := exec.Command("go", "env", "GOCACHE").Output()
		if err != nil {
			fmt.Fprintln(os.Stderr, "go env GOCACHE:", err)
			os.Exit(1)
		}
		os.Setenv("GOCACHE", strings.TrimSpace(string(out)))
	}
	dir, err := os.MkdirTemp("", "nadine-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
