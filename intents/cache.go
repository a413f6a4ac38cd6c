package intents

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Cache keeps trained models on disk so that a process loads what an earlier
// run of the same executable trained (docs/offline.md#the-model-cache).
type Cache struct {
	Dir string       // where the files are; "" trains every time
	Key string       // the identity of what trains: a hash of the executable
	Log *slog.Logger // nil: slog.Default()
}

// DefaultCache is the cache under os.UserCacheDir()/nadine/models keyed by
// the running executable; without a cache directory or executable, it trains.
func DefaultCache() *Cache {
	key, err := executableHash()
	c := &Cache{Key: key}
	if err != nil {
		c.logger().Debug("intents: model cache off", "err", err)
		return c
	}
	if dir, err := os.UserCacheDir(); err == nil {
		c.Dir = filepath.Join(dir, "nadine", "models")
	} else {
		c.logger().Debug("intents: model cache off", "err", err)
	}
	return c
}

// Cached returns the model called name from DefaultCache, training it with
// train when the cache has no good copy.
func Cached(name string, train func() (*Model, error)) (*Model, error) {
	return DefaultCache().Model(name, train)
}

// executableHash is a SHA-256 of the running executable, computed once: the
// executable embeds the examples and the training code, so it names both.
var executableHash = sync.OnceValues(hashExecutable)

func hashExecutable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("intents: executable: %w", err)
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", fmt.Errorf("intents: executable: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("intents: executable: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

func (c *Cache) logger() *slog.Logger {
	if c.Log != nil {
		return c.Log
	}
	return slog.Default()
}

// Model loads the model called name, or trains it and stores it; a cache
// that fails (missing, unreadable, corrupt, full disk) costs only the training.
func (c *Cache) Model(name string, train func() (*Model, error)) (*Model, error) {
	if c.Dir == "" || c.Key == "" || name == "" || strings.ContainsAny(name, `/\`) {
		return train()
	}
	path := c.path(name)
	m, err := load(path)
	if err == nil {
		return m, nil
	}
	c.logger().Debug("intents: training, no cached model", "model", name, "err", err)
	m, err = train()
	if err != nil {
		return nil, err
	}
	if err := c.store(name, path, m); err != nil {
		c.logger().Debug("intents: model not cached", "model", name, "err", err)
	}
	return m, nil
}

// path is the file of a model: its name, then the key, so that the files of
// other executables (other builds) share the name's prefix.
func (c *Cache) path(name string) string {
	return filepath.Join(c.Dir, name+"-"+c.Key+modelExt)
}

const modelExt = ".model"

func load(path string) (*Model, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Model
	if err := m.UnmarshalBinary(b); err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return &m, nil
}

// store writes the model to a temporary file renamed into place, so a reader
// sees the whole file or none, then removes the name's files of other keys.
func (c *Cache) store(name, path string, m *Model) error {
	b, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return fmt.Errorf("intents: cache: %w", err)
	}
	f, err := os.CreateTemp(c.Dir, "."+name+"-*.tmp")
	if err != nil {
		return fmt.Errorf("intents: cache: %w", err)
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
		return fmt.Errorf("intents: cache: %w", werr)
	}
	old, err := filepath.Glob(filepath.Join(c.Dir, name+"-*"+modelExt))
	if err != nil {
		return fmt.Errorf("intents: cache: %w", err)
	}
	var errs []error
	for _, o := range old {
		// Only this name's files: "offline-<key>", not "offline-x-<key>".
		key := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(o), name+"-"), modelExt)
		if o == path || strings.Contains(key, "-") {
			continue
		}
		if err := os.Remove(o); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
