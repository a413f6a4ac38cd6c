package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"path/filepath"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/config"
	"github.com/nadine-robot/nadine/postgres"
	"github.com/nadine-robot/nadine/sqlite"
)

// openStore opens the configured store and names it for the banner; onError
// (may be nil) is told of its failed operations.
func openStore(ctx context.Context, cfg config.Config, log *slog.Logger, onError func(op string, err error)) (nadine.Store, string, error) {
	if cfg.Store.URL == "" {
		path := filepath.Join(cfg.DataDir, "nadine.db")
		st, err := sqlite.Open(ctx, path, sqlite.Options{Logger: log, OnError: onError})
		return st, "SQLite " + path, err
	}
	mode := map[string]postgres.VectorMode{"": postgres.VectorAuto, "auto": postgres.VectorAuto,
		"on": postgres.VectorRequired, "off": postgres.VectorOff}[cfg.Store.Vector]
	st, err := postgres.Open(ctx, cfg.Store.URL, postgres.Options{Logger: log, OnError: onError,
		MaxConns: int32(cfg.Store.MaxConns), Vector: mode, Schema: cfg.Store.Schema})
	if err != nil {
		return nil, "", fmt.Errorf("store.url: %w", err)
	}
	kind := "PostgreSQL"
	if st.Vector() {
		kind += " with pgvector"
	}
	host := ""
	if u, err := url.Parse(cfg.Store.URL); err == nil {
		host = " at " + u.Host + u.Path
	}
	return st, kind + host, nil
}
