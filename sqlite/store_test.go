package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/storetest"
	"github.com/nadine-robot/nadine/sqlite"
)

// open opens a store in a new temporary directory, closed at the end of the
// test.
func open(t testing.TB, opts sqlite.Options) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "data", "nadine.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

func TestContract(t *testing.T) {
	t.Parallel() // its own store in its own directory
	storetest.Run(t, func(t *testing.T) nadine.Store { return open(t, sqlite.Options{}) })
}

// TestContractQuantized runs the contract with every user's vectors
// quantized in the cache: searches must give the exact results.
func TestContractQuantized(t *testing.T) {
	t.Parallel() // its own store in its own directory
	storetest.Run(t, func(t *testing.T) nadine.Store { return open(t, sqlite.Options{QuantizeAbove: 1}) })
}

func TestContractNoCache(t *testing.T) {
	t.Parallel() // its own store in its own directory
	storetest.Run(t, func(t *testing.T) nadine.Store { return open(t, sqlite.Options{CacheBytes: -1}) })
}
