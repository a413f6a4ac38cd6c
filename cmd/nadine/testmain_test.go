package main

import (
	"fmt"
	"os"
	"testing"
)

// TestMain gives the run its own model cache, removed at the end: the tests
// leave nothing in the user's, and what one test trains the others load.
func TestMain(m *testing.M) {
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
