package intents

import (
	"fmt"
	"log/slog"
	"sync/atomic"
)

// Store keeps encoded models between processes, by name (package modelcache
// keeps them in files); intents itself reads and writes nothing.
type Store interface {
	// Load returns the encoding stored under name, or an error.
	Load(name string) ([]byte, error)
	// Save stores data under name, replacing what was there.
	Save(name string, data []byte) error
}

// Cache loads trained models from a Store, training and saving those it lacks.
type Cache struct {
	Store Store        // nil: train every time
	Log   *slog.Logger // nil: slog.Default()
}

// Model loads the model called name, or trains it and saves it; a store that
// fails (missing, unreadable, corrupt, full disk) costs only the training.
func (c *Cache) Model(name string, train func() (*Model, error)) (*Model, error) {
	if c == nil || c.Store == nil {
		return train()
	}
	log := c.Log
	if log == nil {
		log = slog.Default()
	}
	var m Model
	b, err := c.Store.Load(name)
	if err == nil {
		if err = m.UnmarshalBinary(b); err == nil {
			return &m, nil
		}
		err = fmt.Errorf("%w (%s)", err, name)
	}
	log.Debug("intents: training, no cached model", "model", name, "err", err)
	trained, err := train()
	if err != nil {
		return nil, err
	}
	if b, err = trained.MarshalBinary(); err == nil {
		err = c.Store.Save(name, b)
	}
	if err != nil {
		log.Debug("intents: model not cached", "model", name, "err", err)
	}
	return trained, nil
}

// processCache is the process's cache, set once by the command at start: the
// models it feeds are per process too, trained by the first engine to ask.
var processCache atomic.Pointer[Cache]

// UseCache makes Cached use c (nil: train every time). Models already
// loaded by this process stay.
func UseCache(c *Cache) { processCache.Store(c) }

// Cached returns the model called name from the cache UseCache set, training
// it with train when the cache has no good copy.
func Cached(name string, train func() (*Model, error)) (*Model, error) {
	return processCache.Load().Model(name, train)
}
