package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
)

// InboxOptions configures Inboxes. The zero value is a sane default.
type InboxOptions struct {
	// Retain is how long a finished transcript's id is kept to recognize a
	// redelivery; 0 means 24 hours.
	Retain time.Duration
	// Now is the clock; nil means time.Now.
	Now    func() time.Time
	Logger *slog.Logger
}

// Inboxes is a file apart from the memory store: it must be local to the
// process that acknowledges to the broker, and never waits behind a memory write.
type Inboxes struct {
	db     *sql.DB
	path   string
	retain time.Duration
	now    func() time.Time
	log    *slog.Logger

	mu    sync.Mutex
	added int // transcripts added since the last pruning
}

const inboxSchema = `
CREATE TABLE IF NOT EXISTS inbox (
	seq         INTEGER PRIMARY KEY AUTOINCREMENT,
	robot       TEXT    NOT NULL,
	id          TEXT    NOT NULL DEFAULT '',
	text        TEXT    NOT NULL,
	language    TEXT    NOT NULL DEFAULT '',
	spoken_ns   INTEGER NOT NULL DEFAULT 0,
	received_ns INTEGER NOT NULL,
	state       TEXT    NOT NULL DEFAULT 'pending',
	updated_ns  INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS inbox_robot_id ON inbox(robot, id) WHERE id <> '';
CREATE INDEX IF NOT EXISTS inbox_open ON inbox(robot, seq) WHERE state IN ('pending', 'taken', 'spoken');
CREATE INDEX IF NOT EXISTS inbox_done ON inbox(updated_ns) WHERE state NOT IN ('pending', 'taken', 'spoken');
`

// pruneEvery is how many additions pass between prunings of finished transcripts.
const pruneEvery = 1000

// OpenInboxes opens (creating it when missing) the inbox file at path.
func OpenInboxes(ctx context.Context, path string, opts InboxOptions) (*Inboxes, error) {
	if path == "" || strings.Contains(path, "?") || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, nadine.Errorf(nadine.EINVALID, "sqlite: open inbox: path %q must be a plain file path", path)
	}
	if opts.Retain <= 0 {
		opts.Retain = 24 * time.Hour
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("sqlite: open inbox: create data directory: %w", err)
	}
	db, err := sql.Open("sqlite", path+"?_txlock=immediate"+
		"&_pragma=busy_timeout(5000)"+
		"&_pragma=journal_mode(WAL)"+
		"&_pragma=synchronous(FULL)"+
		"&_pragma=secure_delete(1)")
	if err != nil {
		return nil, fmt.Errorf("sqlite: open inbox %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if _, err := db.ExecContext(ctx, inboxSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open inbox %s: schema: %w", path, err)
	}
	in := &Inboxes{db: db, path: path, retain: opts.Retain, now: opts.Now, log: opts.Logger}
	if err := in.prune(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return in, nil
}

// Close closes the file.
func (in *Inboxes) Close() error {
	if err := in.db.Close(); err != nil {
		return fmt.Errorf("sqlite: close inbox: %w", err)
	}
	return nil
}

// Inbox returns the inbox of one robot, keyed by its topic prefix.
func (in *Inboxes) Inbox(robot string) nadine.Inbox { return &inbox{in: in, robot: robot} }

// prune deletes the finished transcripts older than Retain.
func (in *Inboxes) prune(ctx context.Context) error {
	cutoff := in.now().Add(-in.retain).UnixNano()
	if _, err := in.db.ExecContext(ctx, `DELETE FROM inbox WHERE state NOT IN ('pending', 'taken', 'spoken') AND updated_ns < ?`, cutoff); err != nil {
		return fmt.Errorf("sqlite: inbox: prune: %w", err)
	}
	return nil
}

// inbox is one robot's view of Inboxes.
type inbox struct {
	in    *Inboxes
	robot string
}

var _ nadine.Inbox = (*inbox)(nil)

// Add implements nadine.Inbox: one transaction, one sync for the batch.
func (b *inbox) Add(ctx context.Context, ts []nadine.Transcript) ([]nadine.Transcript, error) {
	if len(ts) == 0 {
		return nil, nil
	}
	out := make([]nadine.Transcript, len(ts))
	copy(out, ts)
	tx, err := b.in.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("sqlite: inbox %s: add: %w", b.robot, err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO inbox (robot, id, text, language, spoken_ns, received_ns, updated_ns)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (robot, id) WHERE id <> '' DO NOTHING
		RETURNING seq`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: inbox %s: add: %w", b.robot, err)
	}
	defer stmt.Close()
	now := b.in.now().UnixNano()
	for i := range out {
		t := &out[i]
		var spoken int64
		if !t.Spoken.IsZero() {
			spoken = t.Spoken.UnixNano()
		}
		received := now
		if !t.Received.IsZero() {
			received = t.Received.UnixNano()
		}
		err := stmt.QueryRowContext(ctx, b.robot, t.ID, t.Text, string(t.Language), spoken, received, now).Scan(&t.Seq)
		switch {
		case err == sql.ErrNoRows:
			t.Seq = 0 // a redelivery of an id already kept
		case err != nil:
			return nil, fmt.Errorf("sqlite: inbox %s: add: %w", b.robot, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("sqlite: inbox %s: add: commit: %w", b.robot, err)
	}
	b.in.mu.Lock()
	b.in.added += len(out)
	due := b.in.added >= pruneEvery
	if due {
		b.in.added = 0
	}
	b.in.mu.Unlock()
	if due {
		if err := b.in.prune(ctx); err != nil {
			b.in.log.Warn("sqlite: inbox: finished transcripts not pruned", "err", err)
		}
	}
	return out, nil
}

// Pending implements nadine.Inbox.
func (b *inbox) Pending(ctx context.Context) ([]nadine.InboxEntry, error) {
	rows, err := b.in.db.QueryContext(ctx, `SELECT seq, id, text, language, spoken_ns, received_ns, state FROM inbox
		WHERE robot = ? AND state IN ('pending', 'taken', 'spoken') ORDER BY seq`, b.robot)
	if err != nil {
		return nil, fmt.Errorf("sqlite: inbox %s: pending: %w", b.robot, err)
	}
	defer rows.Close()
	var out []nadine.InboxEntry
	for rows.Next() {
		var (
			e                nadine.InboxEntry
			lang, state      string
			spoken, received int64
		)
		if err := rows.Scan(&e.Seq, &e.ID, &e.Text, &lang, &spoken, &received, &state); err != nil {
			return nil, fmt.Errorf("sqlite: inbox %s: pending: %w", b.robot, err)
		}
		e.Language, e.State, e.Final = nadine.Language(lang), nadine.InboxState(state), true
		if spoken != 0 {
			e.Spoken = time.Unix(0, spoken)
		}
		e.Received = time.Unix(0, received)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: inbox %s: pending: %w", b.robot, err)
	}
	return out, nil
}

// Mark never moves a finished transcript back, and erases its text.
func (b *inbox) Mark(ctx context.Context, state nadine.InboxState, seqs ...int64) error {
	switch state {
	case nadine.InboxPending, nadine.InboxTaken, nadine.InboxSpoken, nadine.InboxAnswered,
		nadine.InboxExpired, nadine.InboxDropped, nadine.InboxInterrupted:
	default:
		return nadine.Errorf(nadine.EINVALID, "sqlite: inbox %s: mark: unknown state %q", b.robot, state)
	}
	if len(seqs) == 0 {
		return nil
	}
	args := []any{string(state), b.in.now().UnixNano(), state.Done(), b.robot}
	var q strings.Builder
	q.WriteString(`UPDATE inbox SET state = ?, updated_ns = ?, text = CASE WHEN ? THEN '' ELSE text END
		WHERE robot = ? AND state IN ('pending', 'taken', 'spoken') AND seq IN (`)
	for i, s := range seqs {
		if i > 0 {
			q.WriteByte(',')
		}
		q.WriteString(strconv.FormatInt(s, 10))
	}
	q.WriteByte(')')
	if _, err := b.in.db.ExecContext(ctx, q.String(), args...); err != nil {
		return fmt.Errorf("sqlite: inbox %s: mark %s: %w", b.robot, state, err)
	}
	if state.Done() {
		b.in.truncateIfIdle(ctx)
	}
	return nil
}

// truncateIfIdle truncates the WAL once no transcript waits, so that no
// transcript (a stranger's included) outlives its turn on disk.
func (in *Inboxes) truncateIfIdle(ctx context.Context) {
	var waiting int
	if err := in.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM inbox WHERE state IN ('pending', 'taken', 'spoken')`).Scan(&waiting); err != nil || waiting > 0 {
		return
	}
	if err := truncateWAL(ctx, in.db, in.path); err != nil {
		in.log.Debug("sqlite: inbox: write-ahead log not truncated", "err", err)
	}
}

var _ nadine.UserEraser = (*Inboxes)(nil)

// EraseUser truncates the log, where finished transcripts' text survives;
// waiting transcripts carry no user id and are the person's next words.
func (in *Inboxes) EraseUser(ctx context.Context, _ string) error {
	if err := truncateWAL(ctx, in.db, in.path); err != nil {
		return fmt.Errorf("sqlite: inbox: %w", err)
	}
	return nil
}

// InboxStates reads one robot's inbox without writing, so the durability
// bench can watch a running nadine's inbox drain.
func InboxStates(ctx context.Context, path, robot string) (map[string]nadine.InboxState, error) {
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)&_pragma=query_only(1)")
	if err != nil {
		return nil, fmt.Errorf("sqlite: inbox %s: states: %w", robot, err)
	}
	defer db.Close()
	return inboxStates(ctx, db, robot)
}

// InboxRecord is where a transcript of an inbox stands and since when.
type InboxRecord struct {
	State   nadine.InboxState
	Updated time.Time // when it came to this state
}

// InboxRecords reads one robot's inbox without writing, with arrival times,
// so the bus bench can measure how soon a transcript expires.
func InboxRecords(ctx context.Context, path, robot string) (map[string]InboxRecord, error) {
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)&_pragma=query_only(1)")
	if err != nil {
		return nil, fmt.Errorf("sqlite: inbox %s: records: %w", robot, err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT id, state, updated_ns FROM inbox WHERE robot = ? AND id <> ''`, robot)
	if err != nil {
		return nil, fmt.Errorf("sqlite: inbox %s: records: %w", robot, err)
	}
	defer rows.Close()
	out := map[string]InboxRecord{}
	for rows.Next() {
		var (
			id, state string
			updated   int64
		)
		if err := rows.Scan(&id, &state, &updated); err != nil {
			return nil, fmt.Errorf("sqlite: inbox %s: records: %w", robot, err)
		}
		out[id] = InboxRecord{State: nadine.InboxState(state), Updated: time.Unix(0, updated)}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: inbox %s: records: %w", robot, err)
	}
	return out, nil
}

// States returns one robot's transcripts with an id, by id.
func (in *Inboxes) States(ctx context.Context, robot string) (map[string]nadine.InboxState, error) {
	return inboxStates(ctx, in.db, robot)
}

func inboxStates(ctx context.Context, db *sql.DB, robot string) (map[string]nadine.InboxState, error) {
	rows, err := db.QueryContext(ctx, `SELECT id, state FROM inbox WHERE robot = ? AND id <> ''`, robot)
	if err != nil {
		return nil, fmt.Errorf("sqlite: inbox %s: states: %w", robot, err)
	}
	defer rows.Close()
	out := map[string]nadine.InboxState{}
	for rows.Next() {
		var id, state string
		if err := rows.Scan(&id, &state); err != nil {
			return nil, fmt.Errorf("sqlite: inbox %s: states: %w", robot, err)
		}
		out[id] = nadine.InboxState(state)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: inbox %s: states: %w", robot, err)
	}
	return out, nil
}

// IntegrityCheck runs SQLite's integrity check on the database at path
// (the store or the inbox file) and returns an error unless it says ok.
func IntegrityCheck(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return fmt.Errorf("sqlite: integrity check %s: %w", path, err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return fmt.Errorf("sqlite: integrity check %s: %w", path, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("sqlite: integrity check %s: %w", path, err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sqlite: integrity check %s: %w", path, err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("sqlite: integrity check %s: %s", path, strings.Join(problems, "; "))
	}
	return nil
}

// Counts is per state for metrics; finished transcripts count only for Retain.
func (in *Inboxes) Counts(ctx context.Context, robot string) (map[nadine.InboxState]int, error) {
	rows, err := in.db.QueryContext(ctx, `SELECT state, count(*) FROM inbox WHERE robot = ? GROUP BY state`, robot)
	if err != nil {
		return nil, fmt.Errorf("sqlite: inbox %s: counts: %w", robot, err)
	}
	defer rows.Close()
	out := map[nadine.InboxState]int{}
	for rows.Next() {
		var state string
		var n int
		if err := rows.Scan(&state, &n); err != nil {
			return nil, fmt.Errorf("sqlite: inbox %s: counts: %w", robot, err)
		}
		out[nadine.InboxState(state)] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: inbox %s: counts: %w", robot, err)
	}
	return out, nil
}
