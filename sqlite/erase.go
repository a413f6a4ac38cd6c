package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/nadine-robot/nadine"
)

// Erasing a person is meant to be unrecoverable, not only invisible to
// queries. Three things make it so:
//
//   - the writer runs with PRAGMA secure_delete=ON, so SQLite overwrites
//     deleted cells and freed pages with zeros instead of leaving them in
//     the file;
//   - after the erase commits, PRAGMA wal_checkpoint(TRUNCATE) copies the
//     zeroed pages into the database file and truncates the write-ahead
//     log, whose older frames still held the text as it was written;
//   - the memory vector cache of the user is dropped.
//
// The shared-memory file (-shm) holds page numbers only, never content.

// personalTables must list every table that records a user (by its user_id
// column): ForgetUser and UserIDs cover only these.
var personalTables = []string{
	"profiles",
	"users",
	"messages",
	"conversations",
	"memories",
	"memory_vectors",
	"memory_codes",
	"scenes",
}

// listedTables are where UserIDs finds ids: messages and the vector tables
// always have a row in conversations or memories.
var listedTables = []string{"users", "profiles", "conversations", "memories", "scenes"}

// ForgetUser erases the user's rows and "<userID>/" checkpoints in one
// transaction, then truncates the WAL so none of it can be read back.
func (s *Store) ForgetUser(ctx context.Context, userID string) error {
	if err := needUser("forget user", userID); err != nil {
		return err
	}
	prefix := userID + "/"
	err := s.write(ctx, func(tx *sql.Tx) error {
		for _, t := range personalTables {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+t+` WHERE user_id = ?`, userID); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM checkpoints WHERE substr(CAST(key AS BLOB), 1, ?) = CAST(? AS BLOB)`,
			len(prefix), prefix)
		return err
	})
	s.cache.invalidate(userKey(userID))
	if err != nil {
		return s.wrap("forget user", err)
	}
	if err := s.truncateWAL(ctx); err != nil {
		return s.wrap("forget user", err)
	}
	s.log.Info("sqlite: forgot a user") // who is not logged: erased means unrecoverable
	return nil
}

// UserIDs lists once each, in order, every user id personal data is stored under.
func (s *Store) UserIDs(ctx context.Context) ([]string, error) {
	q := ""
	for i, t := range listedTables {
		if i > 0 {
			q += " UNION "
		}
		q += "SELECT user_id FROM " + t
	}
	rows, err := s.r.QueryContext(ctx, q+" ORDER BY 1")
	if err != nil {
		return nil, s.wrap("user ids", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, s.wrap("user ids", err)
		}
		ids = append(ids, id)
	}
	return ids, s.wrap("user ids", rows.Err())
}

// truncateWALAttempts bounds the retries while a reader keeps the log in use.
const truncateWALAttempts = 5

// truncateWAL's EUNAVAILABLE means the erase is committed but its text may
// stay in the log until the next checkpoint.
func (s *Store) truncateWAL(ctx context.Context) error {
	return truncateWAL(ctx, s.w, s.path)
}

// truncateWAL checkpoints db's log into the file at path and truncates it,
// retrying while a reader holds it.
func truncateWAL(ctx context.Context, db *sql.DB, path string) error {
	wait := 10 * time.Millisecond
	for attempt := 1; ; attempt++ {
		var busy, logFrames, checkpointed int
		err := db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &checkpointed)
		if err != nil {
			return err
		}
		if busy == 0 {
			return nil
		}
		if attempt == truncateWALAttempts {
			return nadine.Errorf(nadine.EUNAVAILABLE,
				"sqlite: erased, but the write-ahead log is still in use by a reader and could not be truncated; the erased text stays in %s-wal until the next checkpoint", path)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 500*time.Millisecond)
	}
}
