package modeltest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/nadine-robot/nadine/intents"
	"github.com/nadine-robot/nadine/modelcache"
)

// staleAfter is how long a directory of other sources' models is kept.
const staleAfter = 7 * 24 * time.Hour

// UseSharedCache makes the classifiers of this test binary come from a cache
// shared by the test binaries of the same sources: the production cache is
// keyed by the executable, and every package's test binary is another one.
// It returns the cache's directory, or an error (the cache is then off).
func UseSharedCache() (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	key, err := sourceKey(root)
	if err != nil {
		return "", err
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("modeltest: %w", err)
	}
	base = filepath.Join(base, "nadine", "test-models")
	pruneStale(base, key)
	dir := filepath.Join(base, key)
	intents.UseCache(&intents.Cache{Store: &modelcache.Files{Dir: dir, Key: key}})
	return dir, nil
}

// moduleRoot is the first directory holding go.mod from the working
// directory (a package's, under go test) up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("modeltest: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("modeltest: no go.mod above the working directory")
		}
		dir = up
	}
}

// sourceKey hashes what a trained model depends on: every file of the module
// but tests, test data and documentation (the examples and the training code
// among them), and the Go version and architecture.
func sourceKey(root string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s\n", runtime.Version(), runtime.GOARCH)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "docs" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		rel, _ := filepath.Rel(root, path)
		fmt.Fprintf(h, "%s\x00", filepath.ToSlash(rel))
		_, err = io.Copy(h, f)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("modeltest: hashing the sources: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

// pruneStale removes the directories of other sources' models not written
// for staleAfter (other checkouts on the machine keep theirs meanwhile).
func pruneStale(base, key string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && e.IsDir() && e.Name() != key && time.Since(info.ModTime()) > staleAfter {
			os.RemoveAll(filepath.Join(base, e.Name()))
		}
	}
}
