// Package modelcache keeps trained classifiers in files, keyed by the
// executable that trained them (docs/offline.md#the-model-cache).
package modelcache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Files is an intents.Store: one file per model name and key in Dir.
type Files struct {
	Dir string // created on the first Save
	Key string // the identity of what trains: a hash of the executable
}

// Open returns the store under os.UserCacheDir()/nadine/models (which
// honours XDG_CACHE_HOME) keyed by the running executable.
func Open() (*Files, error) {
	key, err := executableHash()
	if err != nil {
		return nil, err
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil, fmt.Errorf("modelcache: %w", err)
	}
	return &Files{Dir: filepath.Join(dir, "nadine", "models"), Key: key}, nil
}

// executableHash is a SHA-256 of the running executable, computed once: the
// executable embeds the examples and the training code, so it names both.
var executableHash = sync.OnceValues(hashExecutable)

func hashExecutable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("modelcache: executable: %w", err)
	}
	return KeyOf(exe)
}

// KeyOf is the key the executable at path keys its models by: a test that
// starts a built nadine can fill that nadine's cache before it starts.
func KeyOf(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("modelcache: executable: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("modelcache: executable: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

const ext = ".model"

// path is the file of a model: its name, then the key.
func (f *Files) path(name string) (string, error) {
	if name == "" || strings.ContainsAny(name, `/\.`) || strings.ContainsAny(f.Key, `/\.-`) || f.Key == "" {
		return "", fmt.Errorf("modelcache: bad model name %q or key %q", name, f.Key)
	}
	return filepath.Join(f.Dir, name+"-"+f.Key+ext), nil
}

// Load reads the model called name of this key.
func (f *Files) Load(name string) ([]byte, error) {
	p, err := f.path(name)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("modelcache: %w", err)
	}
	return b, nil
}

// Save writes a temporary file renamed into place, so a reader sees the whole
// file or none, then removes the name's files of other keys.
func (f *Files) Save(name string, data []byte) error {
	p, err := f.path(name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(f.Dir, 0o700); err != nil {
		return fmt.Errorf("modelcache: %w", err)
	}
	tmp, err := os.CreateTemp(f.Dir, "."+name+"-*.tmp")
	if err != nil {
		return fmt.Errorf("modelcache: %w", err)
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), p)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("modelcache: %w", werr)
	}
	old, err := filepath.Glob(filepath.Join(f.Dir, name+"-*"+ext))
	if err != nil {
		return fmt.Errorf("modelcache: %w", err)
	}
	var errs []error
	for _, o := range old {
		// Only this name's files: "offline-<key>", not "offline-x-<key>".
		key := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(o), name+"-"), ext)
		if o == p || strings.Contains(key, "-") {
			continue
		}
		if err := os.Remove(o); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("modelcache: %w", err))
		}
	}
	return errors.Join(errs...)
}
