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
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/intents"
	"github.com/nadine-robot/nadine/internal/testrun"
	"github.com/nadine-robot/nadine/modelcache"
)

// keptOthers is how many directories of other sources' models are kept.
const keptOthers = 3

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
// among them), the Go version, the architecture and the build tags.
func sourceKey(root string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s\n", runtime.Version(), runtime.GOARCH)
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-tags" || s.Key == "GOEXPERIMENT" || s.Key == "GOAMD64" {
				fmt.Fprintf(h, "%s=%s\n", s.Key, s.Value) // they choose which files build
			}
		}
	}
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

// pruneStale removes the directories of other sources' models but the
// keptOthers newest (other checkouts on the machine keep theirs): each
// change of the sources makes a new one of about 20 MB.
func pruneStale(base, key string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	type dir struct {
		name string
		mod  time.Time
	}
	var others []dir
	for _, e := range entries {
		if info, err := e.Info(); err == nil && e.IsDir() && e.Name() != key {
			others = append(others, dir{e.Name(), info.ModTime()})
		}
	}
	slices.SortFunc(others, func(a, b dir) int { return b.mod.Compare(a.mod) })
	for _, d := range others[min(len(others), keptOthers):] {
		os.RemoveAll(filepath.Join(base, d.name))
	}
}

// Exchange copies the models of the shared cache dir (UseSharedCache's)
// into files, a cache under another key (a command's, keyed by its
// executable), and returns a function that copies back the models files
// trained meanwhile, for the next test binary. Neither copy is needed for
// correctness: a model missing is trained.
func Exchange(dir string, files *modelcache.Files) (back func()) {
	shared := &modelcache.Files{Dir: dir, Key: filepath.Base(dir)}
	copyModels(shared, files)
	return func() { copyModels(files, shared) }
}

// Share is Exchange from the shared cache (UseSharedCache's directory and
// error) into the cache files opens; with either missing it says so and the
// classifiers are trained (back does nothing).
func Share(shared string, err error, files func() (*modelcache.Files, error)) (back func()) {
	var to *modelcache.Files
	if err == nil {
		to, err = files()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err, "(the classifiers are trained)")
		return func() {}
	}
	return Exchange(shared, to)
}

// copyModels saves into to each model of from that to lacks.
func copyModels(from, to *modelcache.Files) {
	paths, _ := filepath.Glob(filepath.Join(from.Dir, "*-"+from.Key+".model"))
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), "-"+from.Key+".model")
		if _, err := to.Load(name); err == nil {
			continue
		}
		if b, err := from.Load(name); err == nil {
			_ = to.Save(name, b) // a model not copied is trained
		}
	}
}

// Main is a test binary's TestMain: it loads the classifiers another test
// binary of these sources trained, then runs the tests.
func Main(m *testing.M) {
	if _, err := UseSharedCache(); err != nil {
		fmt.Fprintln(os.Stderr, err, "(the classifiers are trained)")
	}
	testrun.Exit(m.Run())
}
