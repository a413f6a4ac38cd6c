package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/internal/modeltest"
	"github.com/nadine-robot/nadine/internal/testrun"
	"github.com/nadine-robot/nadine/modelcache"
)

// TestMain gives the run its own model cache, removed at the end: the tests
// leave nothing in the user's, and what one test trains the others load.
// It starts with the models other test binaries of these sources trained.
// GOCACHE is pinned first, so go commands keep their build cache.
func TestMain(m *testing.M) {
	flag.Parse()
	testrun.WidenParallel(4) // the exhibition runs wait on replies and idle timeouts
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
	shared, sharedErr := modeltest.UseSharedCache() // in the user's cache, before it moves
	os.Setenv("XDG_CACHE_HOME", dir)
	// The models go to the cache serve opens, keyed by this executable.
	back := modeltest.Share(shared, sharedErr, modelcache.Open)
	code := m.Run()
	back()
	os.RemoveAll(dir)
	testrun.Exit(code)
}
