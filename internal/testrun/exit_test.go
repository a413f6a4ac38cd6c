package testrun

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// exits are the TestMains that end through Exit.
var exits = regexp.MustCompile(`testrun\.(Main|Exit)\(|modeltest\.Main\(`)

// TestEveryPackageExitsThroughExit: a package whose tests end another way
// sleeps a second at exit under the race detector (Exit's comment).
func TestEveryPackageExitsThroughExit(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]bool{} // directory → a test file ends through Exit
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		tests[dir] = tests[dir] || exits.Match(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) < 40 {
		t.Fatalf("%d packages with tests found from %s", len(tests), root)
	}
	for dir, ok := range tests {
		if rel, _ := filepath.Rel(root, dir); !ok && rel != filepath.Join("internal", "testrun") {
			t.Errorf("%s: no TestMain ends through testrun.Exit (add `func TestMain(m *testing.M) { testrun.Main(m) }`)", rel)
		}
	}
}
