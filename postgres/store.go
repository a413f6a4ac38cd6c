package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

// VectorMode says whether the store uses the pgvector extension.
type VectorMode int

// Vector modes.
const (
	// VectorAuto uses pgvector when the extension is installed, or can be
	// installed by this user, and stock PostgreSQL otherwise.
	VectorAuto VectorMode = iota
	// VectorOff never installs pgvector's schema (migration 2); a database
	// that already has it keeps using it.
	VectorOff
	// VectorRequired fails Open when pgvector cannot be used.
	VectorRequired
)

// Options configures a Store. The zero value is a sane default.
type Options struct {
	// Logger receives operational messages; nil discards them.
	Logger *slog.Logger
	// OnError hears of each database failure (not a missing row or invalid
	// input), for metrics; it must return at once.
	OnError func(op string, err error)
	// Now is the clock for times the store fills in; nil means time.Now.
	Now func() time.Time
	// MaxConns is the pool size; 0 keeps the URL's pool_max_conns, else pgx's
	// default.
	MaxConns int32
	// Schema, created when missing, goes first on every connection's
	// search_path, before public where pgvector usually lives.
	Schema string
	// Vector says whether to use pgvector; the zero value is VectorAuto.
	Vector VectorMode
	// ConnectTimeout bounds opening one connection; 0 keeps the URL's
	// connect_timeout, else 10 seconds.
	ConnectTimeout time.Duration
	// ExactLimit is how many vectors of the query's space a user may have
	// and still be ranked exactly, not through HNSW; 0 is 10,000, < 0 always.
	ExactLimit int
	// EfSearch is pgvector's hnsw.ef_search (at least 2k): larger finds more
	// true neighbours, slower. 0 means 100.
	EfSearch int
}

// Store is a nadine.Store on PostgreSQL, shared by every robot and process
// of a fleet. It is safe for concurrent use.
type Store struct {
	onError func(op string, err error)
	pool    *pgxpool.Pool
	log     *slog.Logger
	now     func() time.Time
	vector  bool   // the pgvector schema (migration 2) is in place
	vecVer  [2]int // pgvector's major and minor version, when vector
	vecIn   string // SQL cast of a vector parameter (see vecArg) to the embedding column's type
	vecOut  string // SQL cast of the embedding column to what vecCol reads
	where   string // host and database, for messages

	exactLimit int      // Options.ExactLimit, defaulted
	efSearch   int      // Options.EfSearch, defaulted
	indexes    sync.Map // names of the HNSW indexes known to exist
}

var _ nadine.Store = (*Store)(nil)

// Open applies migrations under an advisory lock so processes starting together
// apply each once; it also SETs the url's search_path, which some servers ignore.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	if strings.TrimSpace(url) == "" {
		return nil, nadine.Errorf(nadine.EINVALID, "postgres: open: empty URL")
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message names the bad part and hides the password.
		return nil, nadine.Errorf(nadine.EINVALID, "postgres: open: bad URL: %v", err)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	if opts.ConnectTimeout > 0 {
		cfg.ConnConfig.ConnectTimeout = opts.ConnectTimeout
	} else if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 10 * time.Second
	}
	searchPath := cfg.ConnConfig.RuntimeParams["search_path"]
	if opts.Schema != "" {
		searchPath = pgx.Identifier{opts.Schema}.Sanitize() + ", public"
	}
	if searchPath != "" {
		set := "SET search_path TO " + searchPath
		cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
			_, err := c.Exec(ctx, set)
			return err
		}
	}
	if opts.ExactLimit == 0 {
		opts.ExactLimit = 10_000
	}
	if opts.EfSearch <= 0 {
		opts.EfSearch = 100
	}
	s := &Store{
		onError:    opts.OnError,
		exactLimit: opts.ExactLimit,
		efSearch:   opts.EfSearch,
		log:        opts.Logger,
		now:        opts.Now,
		where:      cfg.ConnConfig.Host + "/" + cfg.ConnConfig.Database,
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, s.wrap("open "+s.where, err)
	}
	s.pool = pool
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, s.wrap("open "+s.where, err)
	}
	version, err := s.migrate(ctx, opts.Schema, opts.Vector)
	if err != nil {
		pool.Close()
		return nil, err
	}
	if s.vector {
		s.vecIn, s.vecOut = "::real[]::vector", "::text"
		var v string
		if err := pool.QueryRow(ctx, `SELECT extversion FROM pg_extension WHERE extname = 'vector'`).Scan(&v); err != nil {
			pool.Close()
			return nil, s.wrap("open "+s.where+": pgvector version", err)
		}
		s.vecVer = parseVersion(v)
	}
	s.log.Info("postgres: opened", "server", s.where, "schema_version", version, "pgvector", s.vector,
		"max_conns", cfg.MaxConns)
	return s, nil
}

// Close closes the connection pool. The store must not be used afterwards.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// vecArg returns v as the parameter for an embedding column: bytea on
// stock PostgreSQL, real[] cast to vector with pgvector, NULL when empty.
func (s *Store) vecArg(v []float32) any {
	switch {
	case len(v) == 0:
		return nil
	case s.vector:
		return v
	}
	return records.EncodeVector(v)
}

// Vector reports whether the store uses pgvector.
func (s *Store) Vector() bool { return s.vector }

// parseVersion reads the major and minor of "0.8.1".
func parseVersion(v string) [2]int {
	var out [2]int
	parts := strings.SplitN(v, ".", 3)
	for i := 0; i < len(out) && i < len(parts); i++ {
		out[i], _ = strconv.Atoi(parts[i])
	}
	return out
}

// vectorAtLeast reports whether pgvector is at least major.minor.
func (s *Store) vectorAtLeast(major, minor int) bool {
	return s.vecVer[0] > major || (s.vecVer[0] == major && s.vecVer[1] >= minor)
}

// db is what a pool and a transaction share.
type db interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// exec runs a statement with its text arguments cleaned (see clean).
func exec(ctx context.Context, q db, sql string, args ...any) (pgconn.CommandTag, error) {
	return q.Exec(ctx, sql, cleanArgs(args)...)
}

// query runs a query with its text arguments cleaned.
func query(ctx context.Context, q db, sql string, args ...any) (pgx.Rows, error) {
	return q.Query(ctx, sql, cleanArgs(args)...)
}

// queryRow runs a one-row query with its text arguments cleaned.
func queryRow(ctx context.Context, q db, sql string, args ...any) pgx.Row {
	return q.QueryRow(ctx, sql, cleanArgs(args)...)
}

// clean makes s storable in a PostgreSQL text column: invalid UTF-8 and NUL
// characters, which the server refuses, become U+FFFD.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	}
	return s
}

// cleanArgs cleans the string and []string arguments of a statement.
func cleanArgs(args []any) []any {
	for i, a := range args {
		switch v := a.(type) {
		case string:
			args[i] = clean(v)
		case []string:
			out := make([]string, len(v))
			for j, x := range v {
				out[j] = clean(x)
			}
			args[i] = out
		}
	}
	return args
}

// maxAttempts bounds tx's retries of serialization failures and deadlocks.
const maxAttempts = 4

// tx retries, up to maxAttempts, a transaction the server aborted for a
// serialization failure or a deadlock.
func (s *Store) tx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	var err error
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		err = pgx.BeginFunc(ctx, s.pool, fn)
		if !isCode(err, "40001", "40P01") || ctx.Err() != nil {
			return err
		}
		s.log.Debug("postgres: transaction retried", "attempt", attempt, "err", err)
	}
	return err
}

// needUser returns an EINVALID error when userID is empty.
func needUser(op, userID string) error { return records.NeedUser("postgres", op, userID) }

// wrap gives err the root package's code (see code); *nadine.Error values
// already carry it and stay as they are.
func (s *Store) wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var ne *nadine.Error
	if errors.As(err, &ne) {
		return err
	}
	c := code(err)
	if c == nadine.EUNAVAILABLE {
		s.log.Warn("postgres: server unavailable", "op", op, "err", err)
	}
	if s.onError != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		s.onError(op, err)
	}
	return &nadine.Error{Code: c, Message: fmt.Sprintf("postgres: %s: %v", op, err), Err: err}
}

// utc returns t in UTC (pgx reads timestamptz in the local zone).
func utc(t time.Time) time.Time { return t.UTC() }
