package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/nadine-robot/nadine/internal/storetest"
	"github.com/nadine-robot/nadine/sqlite"
)

// TestShared runs the two-process checks on two stores open on one file.
func TestShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nadine.db")
	a, err := sqlite.Open(t.Context(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := sqlite.Open(t.Context(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	storetest.Shared(t, a, b)
}
