package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

// SaveCheckpoint replaces what key holds. Keys of a user's state start with
// "<userID>/" so that ForgetUser erases them.
func (s *Store) SaveCheckpoint(ctx context.Context, key string, data []byte) error {
	if err := records.NeedKey("sqlite", "save checkpoint", key); err != nil {
		return err
	}
	if data == nil {
		data = []byte{}
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO checkpoints (key, data, updated_us) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET data = excluded.data, updated_us = excluded.updated_us`,
			key, data, toMicros(s.now()))
		return err
	})
	return s.wrap("save checkpoint", err)
}

// LoadCheckpoint returns the checkpoint stored under key, or ENOTFOUND.
func (s *Store) LoadCheckpoint(ctx context.Context, key string) ([]byte, error) {
	if err := records.NeedKey("sqlite", "load checkpoint", key); err != nil {
		return nil, err
	}
	var data []byte
	err := s.r.QueryRowContext(ctx, `SELECT data FROM checkpoints WHERE key = ?`, key).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nadine.Errorf(nadine.ENOTFOUND, "sqlite: no checkpoint %q", key)
	}
	if err != nil {
		return nil, s.wrap("load checkpoint", err)
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

// DeleteCheckpoint of a missing key is not an error.
func (s *Store) DeleteCheckpoint(ctx context.Context, key string) error {
	if err := records.NeedKey("sqlite", "delete checkpoint", key); err != nil {
		return err
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM checkpoints WHERE key = ?`, key)
		return err
	})
	return s.wrap("delete checkpoint", err)
}
