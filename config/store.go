package config

import (
	"net/url"
	"regexp"
	"strings"
)

// StoreConfig says where Nadine keeps what it remembers: SQLite in data_dir
// (the default, one robot) or PostgreSQL (a fleet sharing one memory).
type StoreConfig struct {
	// URL is empty for SQLite in data_dir, or postgres://…; leave the
	// password out: the driver reads PGPASSWORD and ~/.pgpass.
	URL string `yaml:"url"`
	// MaxConns is the PostgreSQL connection pool's size per process (0: the
	// URL's pool_max_conns, else 4 or the number of CPUs, the larger).
	MaxConns int `yaml:"max_conns"`
	// Vector is auto (use pgvector when installed), on (require it) or off.
	Vector string `yaml:"vector"`
	// Schema holds Nadine's tables (created when missing), so that fleets can
	// share a database; empty uses the connection's search_path.
	Schema string `yaml:"schema"`
}

// schemaName: store.schema must be a plain SQL identifier.
var schemaName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// postgresURL reports whether u names a PostgreSQL database.
func postgresURL(u string) bool {
	return strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://")
}

// validateStore checks store.*.
func (c *Config) validateStore(bad func(field, format string, args ...any)) {
	s := c.Store
	if s.URL != "" {
		if u, err := url.Parse(s.URL); err != nil || !postgresURL(s.URL) || u.Host == "" {
			// The URL is not repeated: it may hold a password.
			bad("store.url", "must be empty (SQLite in data_dir) or a postgres://user@host:5432/db URL")
		}
	}
	if s.MaxConns < 0 {
		bad("store.max_conns", "must not be negative")
	}
	if s.Schema != "" && !schemaName.MatchString(s.Schema) {
		bad("store.schema", "must be lowercase letters, digits and _ (at most 63), not %q", s.Schema)
	}
	switch s.Vector {
	case "", "auto", "on", "off":
	default:
		bad("store.vector", "must be auto, on or off, not %q", s.Vector)
	}
}
