package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/migrations"
	"github.com/nadine-robot/nadine/internal/records"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// Options configures a Store. The zero value is a sane default.
type Options struct {
	// Logger receives operational messages; nil discards them.
	Logger *slog.Logger
	// Now is the clock for times the store fills in; nil means time.Now.
	Now func() time.Time
	// BusyTimeout is how long a statement waits for a lock held by another
	// process; 0 means 5 seconds.
	BusyTimeout time.Duration
	// CacheBytes bounds the vectors kept between searches; 0 means
	// DefaultCacheBytes, < 0 no cache.
	CacheBytes int64
	// QuantizeAbove is a user's vector bytes above which the cache keeps them
	// quantized (a quarter; searches stay exact); 0 is the default, < 0 never.
	QuantizeAbove int64
	// ReadConns is the size of the read connection pool; 0 means
	// max(4, GOMAXPROCS).
	ReadConns int
	// MmapSize is SQLite's mmap_size for read connections, so loading vectors
	// copies pages without a system call each; 0 is 1 GiB on 64-bit, < 0 none.
	MmapSize int64
	// OnError hears of each database failure (not a missing row or invalid
	// input), for metrics; it must return at once.
	OnError func(op string, err error)
}

// Defaults: 64 MiB cache ~60,000 memories of 256 dimensions (one quantized
// person of 200,000); a person is quantized from 8 MiB (8,192 of them).
const (
	DefaultCacheBytes    = 64 << 20
	DefaultQuantizeAbove = 8 << 20
)

// Store is a nadine.Store in one SQLite file. It is safe for concurrent use.
type Store struct {
	path     string
	w        *sql.DB // the one writer connection
	r        *sql.DB // read-only pool
	u        *sql.DB // read-only pool that does not map the file (r when r does not)
	log      *slog.Logger
	now      func() time.Time
	cache    *vectorCache
	quantize int64 // Options.QuantizeAbove
	mmap     int64 // Options.MmapSize
	onError  func(op string, err error)
	// parallelFrom is parallelEntries; the tests lower it to reach the
	// parallel scan without inserting 20,000 rows under the race detector.
	parallelFrom int

	// The loads WarmMemories starts: they end with warm's context, which
	// Close cancels before it waits for them.
	warm       context.Context
	stopWarm   context.CancelFunc
	warmMu     sync.Mutex // guards warmClosed and warming.Add against Close
	warmClosed bool
	warming    sync.WaitGroup
}

var _ nadine.Store = (*Store)(nil)

// Open creates the file and its directory when missing and applies pending
// migrations in one transaction.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if path == "" {
		return nil, nadine.Errorf(nadine.EINVALID, "sqlite: open: empty path")
	}
	if strings.Contains(path, "?") || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, nadine.Errorf(nadine.EINVALID, "sqlite: open: path %q must be a plain file path", path)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = 5 * time.Second
	}
	if opts.CacheBytes == 0 {
		opts.CacheBytes = DefaultCacheBytes
	}
	if opts.QuantizeAbove == 0 {
		opts.QuantizeAbove = DefaultQuantizeAbove
	}
	if opts.ReadConns <= 0 {
		opts.ReadConns = max(4, runtime.GOMAXPROCS(0))
	}
	if opts.MmapSize == 0 && strconv.IntSize == 64 {
		opts.MmapSize = 1 << 30
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("sqlite: open: create data directory: %w", err)
	}

	busy := strconv.FormatInt(opts.BusyTimeout.Milliseconds(), 10)
	w, err := sql.Open("sqlite", path+"?_txlock=immediate"+
		"&_pragma=busy_timeout("+busy+")"+
		"&_pragma=foreign_keys(1)"+
		"&_pragma=journal_mode(WAL)"+
		"&_pragma=synchronous(FULL)"+
		// Deleted content is overwritten with zeros, so that an erased
		// person cannot be read back from free pages (see erase.go).
		"&_pragma=secure_delete(1)")
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)

	s := &Store{
		path:     path,
		onError:  opts.OnError,
		w:        w,
		log:      opts.Logger,
		now:      opts.Now,
		cache:    newVectorCache(opts.CacheBytes),
		quantize: opts.QuantizeAbove,
		mmap:     opts.MmapSize,

		parallelFrom: parallelEntries,
	}
	s.warm, s.stopWarm = context.WithCancel(context.WithoutCancel(ctx))
	version, err := s.migrate(ctx)
	if err != nil {
		w.Close()
		return nil, err
	}

	readDSN := path + "?_pragma=busy_timeout(" + busy + ")&_pragma=query_only(1)"
	if opts.MmapSize > 0 {
		readDSN += "&_pragma=mmap_size(" + strconv.FormatInt(opts.MmapSize, 10) + ")"
	}
	r, err := sql.Open("sqlite", readDSN)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: open %s for reading: %w", path, err)
	}
	r.SetMaxOpenConns(opts.ReadConns)
	r.SetMaxIdleConns(opts.ReadConns)
	if err := r.PingContext(ctx); err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("sqlite: open %s for reading: %w", path, err)
	}
	s.r, s.u = r, r
	if opts.MmapSize > 0 {
		// Reads that touch many pages once (a large person's codes) or
		// pages scattered over the file (the rows of a search's
		// candidates) go through a pool that reads them into SQLite's
		// bounded page cache: through the map, every page touched, and
		// the kernel's neighbours of it, would stay in the process's
		// resident memory.
		u, err := sql.Open("sqlite", path+"?_pragma=busy_timeout("+busy+")&_pragma=query_only(1)")
		if err != nil {
			w.Close()
			r.Close()
			return nil, fmt.Errorf("sqlite: open %s for reading: %w", path, err)
		}
		u.SetMaxOpenConns(unmappedConns)
		u.SetMaxIdleConns(unmappedConns)
		s.u = u
	}
	s.log.Info("sqlite: opened", "path", path, "schema_version", version)
	return s, nil
}

// unmappedConns is the size of the pool of reads without the map.
const unmappedConns = 2

// Close stops the loads WarmMemories started.
func (s *Store) Close() error {
	s.warmMu.Lock()
	s.warmClosed = true
	s.warmMu.Unlock()
	s.stopWarm()
	s.warming.Wait()
	err := errors.Join(s.r.Close(), s.w.Close())
	if s.u != s.r {
		err = errors.Join(err, s.u.Close())
	}
	if err != nil {
		return fmt.Errorf("sqlite: close: %w", err)
	}
	return nil
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// migrate returns the schema version.
func (s *Store) migrate(ctx context.Context) (int, error) {
	ms, err := migrations.Load(migrationFS, "migrations")
	if err != nil {
		return 0, fmt.Errorf("sqlite: migrate: %w", err)
	}
	var version int
	err = s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&version); err != nil {
			return err
		}
		if n := len(ms); n > 0 && version > ms[n-1].Version {
			return fmt.Errorf("database schema version %d is newer than this program's %d", version, ms[n-1].Version)
		}
		for _, m := range ms {
			if m.Version <= version {
				continue
			}
			if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
				return fmt.Errorf("%s: %w", m.Name, err)
			}
			if step := s.migrationStep(m.Version); step != nil {
				if err := step(ctx, tx); err != nil {
					return fmt.Errorf("%s: %w", m.Name, err)
				}
			}
			version = m.Version
			s.log.Info("sqlite: applied migration", "migration", m.Name)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM schema_version`); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (?)`, version)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: migrate %s: %w", s.path, err)
	}
	return version, nil
}

// migrationStep is a version's Go code, run after its SQL in the same transaction.
func (s *Store) migrationStep(version int) func(context.Context, *sql.Tx) error {
	switch version {
	case 4: // the packed memory vector index and its codes (see buildMemoryIndex)
		return s.buildMemoryIndex
	}
	return nil
}

// write uses BEGIN IMMEDIATE on the one writer connection.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		if rerr := tx.Rollback(); rerr != nil && !errors.Is(rerr, sql.ErrTxDone) {
			s.log.Warn("sqlite: rollback failed", "err", rerr)
		}
		return err
	}
	return tx.Commit()
}

// needUser returns an EINVALID error when userID is empty.
func needUser(op, userID string) error { return records.NeedUser("sqlite", op, userID) }

// wrap keeps *nadine.Error values as they are; a database error (not ours,
// not the caller's cancellation) also goes to Options.OnError.
func (s *Store) wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var ne *nadine.Error
	if errors.As(err, &ne) {
		return err
	}
	if s.onError != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		s.onError(op, err)
	}
	return fmt.Errorf("sqlite: %s: %w", op, err)
}

// toMicros converts a time to Unix microseconds, 0 for the zero time.
func toMicros(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMicro()
}

// fromMicros converts Unix microseconds to a UTC time, the zero time for 0.
func fromMicros(us int64) time.Time {
	if us == 0 {
		return time.Time{}
	}
	return time.UnixMicro(us).UTC()
}
