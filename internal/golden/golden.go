// Package golden compares what a test produced with a golden file in the
// package's testdata folder, and rewrites the file when the test runs with
// -update, so that a change to a prompt or a saved format shows up in
// review as a diff.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Check compares got with testdata/<name>.golden (rewriting it first under
// -update) and returns the golden content.
func Check(t testing.TB, name string, got []byte) []byte {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from %s (run the test with -update and review the diff)\n--- got:\n%s\n--- want:\n%s", name, path, got, want)
	}
	return want
}
