package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/turnstats"
)

// StatsOptions configures Stats. The zero value is a sane default.
type StatsOptions struct {
	// Retain is how long records are kept; 0 means 400 days.
	Retain time.Duration
	// Flush is how long a record may wait before it is written (1 s); the
	// writer also goes as soon as 256 wait.
	Flush  time.Duration
	Now    func() time.Time
	Logger *slog.Logger
}

// Stats holds no text and no user id. One goroutine writes records in batches,
// off the turn's path; a full queue drops a record (counted) rather than wait.
type Stats struct {
	db     *sql.DB
	path   string
	opts   StatsOptions
	queue  chan any // turnstats.Turn or turnstats.Session
	done   chan struct{}
	lost   atomic.Uint64
	close  sync.Once
	closed chan struct{}
}

const statsSchema = `
CREATE TABLE IF NOT EXISTS turns (
	time_ns        INTEGER NOT NULL,
	robot          TEXT    NOT NULL,
	engine         TEXT    NOT NULL DEFAULT '',
	outcome        TEXT    NOT NULL,
	language       TEXT    NOT NULL DEFAULT '',
	first_speech_ns INTEGER NOT NULL DEFAULT 0,
	duration_ns    INTEGER NOT NULL DEFAULT 0,
	model_calls    INTEGER NOT NULL DEFAULT 0,
	model_errors   INTEGER NOT NULL DEFAULT 0,
	filler         INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS turns_time ON turns(time_ns);
CREATE TABLE IF NOT EXISTS sessions (
	end_ns      INTEGER NOT NULL,
	robot       TEXT    NOT NULL,
	reason      TEXT    NOT NULL,
	turns       INTEGER NOT NULL,
	duration_ns INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_end ON sessions(end_ns);
`

// statsQueue bounds the records waiting to be written.
const statsQueue = 4096

// OpenStats starts the stats writer; Close stops it.
func OpenStats(ctx context.Context, path string, opts StatsOptions) (*Stats, error) {
	if path == "" || strings.Contains(path, "?") || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, nadine.Errorf(nadine.EINVALID, "sqlite: open stats: path %q must be a plain file path", path)
	}
	if opts.Retain <= 0 {
		opts.Retain = 400 * 24 * time.Hour
	}
	if opts.Flush <= 0 {
		opts.Flush = time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("sqlite: open stats: create data directory: %w", err)
	}
	db, err := sql.Open("sqlite", path+"?_txlock=immediate&_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		return nil, fmt.Errorf("sqlite: open stats %s: %w", path, err)
	}
	db.SetMaxOpenConns(2)
	if _, err := db.ExecContext(ctx, statsSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open stats %s: schema: %w", path, err)
	}
	s := &Stats{db: db, path: path, opts: opts, queue: make(chan any, statsQueue), done: make(chan struct{}), closed: make(chan struct{})}
	cut := opts.Now().Add(-opts.Retain).UnixNano()
	if _, err := db.ExecContext(ctx, `DELETE FROM turns WHERE time_ns < ?; DELETE FROM sessions WHERE end_ns < ?`, cut, cut); err != nil {
		opts.Logger.Warn("sqlite: stats: old records not pruned", "err", err)
	}
	go s.write()
	return s, nil
}

// ReadStats opens read-only, so nadine report can run beside a serving nadine.
func ReadStats(ctx context.Context, path string) (*Stats, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, nadine.Errorf(nadine.ENOTFOUND, "sqlite: stats %s: %v (nadine serve records turns there)", path, err)
	}
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)&_pragma=query_only(1)")
	if err != nil {
		return nil, fmt.Errorf("sqlite: open stats %s: %w", path, err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open stats %s: %w", path, err)
	}
	s := &Stats{db: db, path: path, closed: make(chan struct{})}
	close(s.closed)
	return s, nil
}

// RecordTurn queues a turn's record; it never waits.
func (s *Stats) RecordTurn(t turnstats.Turn) { s.enqueue(t) }

// RecordSession queues an interaction's record; it never waits.
func (s *Stats) RecordSession(e turnstats.Session) { s.enqueue(e) }

func (s *Stats) enqueue(r any) {
	select {
	case <-s.closed:
		s.lost.Add(1)
		return
	default:
	}
	select {
	case s.queue <- r:
	default:
		s.lost.Add(1)
	}
}

// Lost returns how many records were dropped (queue full, or after Close).
func (s *Stats) Lost() uint64 { return s.lost.Load() }

// write writes the queued records in batches until Close.
func (s *Stats) write() {
	defer close(s.done)
	tick := time.NewTicker(s.opts.Flush)
	defer tick.Stop()
	var batch []any
	flush := func() {
		if len(batch) == 0 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.insert(ctx, batch); err != nil {
			s.lost.Add(uint64(len(batch)))
			s.opts.Logger.Warn("sqlite: stats: records not written", "count", len(batch), "err", err)
		}
		batch = batch[:0]
	}
	for {
		select {
		case r := <-s.queue:
			batch = append(batch, r)
			if len(batch) >= 256 {
				flush()
			}
		case <-tick.C:
			flush()
		case <-s.closed:
			for {
				select {
				case r := <-s.queue:
					batch = append(batch, r)
				default:
					flush()
					return
				}
			}
		}
	}
}

func (s *Stats) insert(ctx context.Context, batch []any) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it does nothing
	for _, r := range batch {
		switch r := r.(type) {
		case turnstats.Turn:
			_, err = tx.ExecContext(ctx, `INSERT INTO turns (time_ns, robot, engine, outcome, language, first_speech_ns, duration_ns, model_calls, model_errors, filler)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.Time.UnixNano(), r.Robot, r.Engine, string(r.Outcome), string(r.Language),
				int64(r.FirstSpeech), int64(r.Duration), r.ModelCalls, r.ModelErrors, r.Filler)
		case turnstats.Session:
			_, err = tx.ExecContext(ctx, `INSERT INTO sessions (end_ns, robot, reason, turns, duration_ns) VALUES (?, ?, ?, ?, ?)`,
				r.End.UnixNano(), r.Robot, r.Reason, r.Turns, int64(r.Duration))
		}
		if err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Turns returns [from, to) oldest first, in from's time zone.
func (s *Stats) Turns(ctx context.Context, from, to time.Time) ([]turnstats.Turn, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT time_ns, robot, engine, outcome, language, first_speech_ns, duration_ns, model_calls, model_errors, filler
		FROM turns WHERE time_ns >= ? AND time_ns < ? ORDER BY time_ns`, from.UnixNano(), to.UnixNano())
	if err != nil {
		return nil, fmt.Errorf("sqlite: stats: turns: %w", err)
	}
	defer rows.Close()
	var out []turnstats.Turn
	for rows.Next() {
		var t turnstats.Turn
		var at, first, dur int64
		var outcome, lang string
		if err := rows.Scan(&at, &t.Robot, &t.Engine, &outcome, &lang, &first, &dur, &t.ModelCalls, &t.ModelErrors, &t.Filler); err != nil {
			return nil, fmt.Errorf("sqlite: stats: turns: %w", err)
		}
		t.Time = time.Unix(0, at).In(from.Location())
		t.Outcome, t.Language = turnstats.Outcome(outcome), nadine.Language(lang)
		t.FirstSpeech, t.Duration = time.Duration(first), time.Duration(dur)
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: stats: turns: %w", err)
	}
	return out, nil
}

// Sessions returns interactions ended in [from, to), oldest first.
func (s *Stats) Sessions(ctx context.Context, from, to time.Time) ([]turnstats.Session, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT end_ns, robot, reason, turns, duration_ns FROM sessions
		WHERE end_ns >= ? AND end_ns < ? ORDER BY end_ns`, from.UnixNano(), to.UnixNano())
	if err != nil {
		return nil, fmt.Errorf("sqlite: stats: sessions: %w", err)
	}
	defer rows.Close()
	var out []turnstats.Session
	for rows.Next() {
		var e turnstats.Session
		var end, dur int64
		if err := rows.Scan(&end, &e.Robot, &e.Reason, &e.Turns, &dur); err != nil {
			return nil, fmt.Errorf("sqlite: stats: sessions: %w", err)
		}
		e.End, e.Duration = time.Unix(0, end).In(from.Location()), time.Duration(dur)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: stats: sessions: %w", err)
	}
	return out, nil
}

// Summary sums up [from, to) for one robot or all (robot "").
func (s *Stats) Summary(ctx context.Context, from, to, now time.Time, robot string) (turnstats.Summary, error) {
	turns, err := s.Turns(ctx, from, to)
	if err != nil {
		return turnstats.Summary{}, err
	}
	sessions, err := s.Sessions(ctx, from, to)
	if err != nil {
		return turnstats.Summary{}, err
	}
	return turnstats.Summarize(turns, sessions, from, to, now, robot), nil
}

// Close writes what is queued and closes the file.
func (s *Stats) Close() error {
	s.close.Do(func() {
		if s.done != nil {
			close(s.closed)
			<-s.done
		}
	})
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("sqlite: stats: close: %w", err)
	}
	return nil
}
