package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

// SaveCheckpoint replaces what key holds. Keys of a user's state start with
// "<userID>/" so that ForgetUser erases them.
func (s *Store) SaveCheckpoint(ctx context.Context, key string, data []byte) error {
	if err := records.NeedKey("postgres", "save checkpoint", key); err != nil {
		return err
	}
	if data == nil {
		data = []byte{}
	}
	_, err := exec(ctx, s.pool, `INSERT INTO checkpoints (key, data, updated) VALUES ($1, $2, $3)
		ON CONFLICT (key) DO UPDATE SET data = excluded.data, updated = excluded.updated`,
		key, data, s.now())
	return s.wrap("save checkpoint", err)
}

// LoadCheckpoint returns the checkpoint stored under key, or ENOTFOUND.
func (s *Store) LoadCheckpoint(ctx context.Context, key string) ([]byte, error) {
	if err := records.NeedKey("postgres", "load checkpoint", key); err != nil {
		return nil, err
	}
	var data []byte
	err := queryRow(ctx, s.pool, `SELECT data FROM checkpoints WHERE key = $1`, key).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nadine.Errorf(nadine.ENOTFOUND, "postgres: no checkpoint %q", key)
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
	if err := records.NeedKey("postgres", "delete checkpoint", key); err != nil {
		return err
	}
	_, err := exec(ctx, s.pool, `DELETE FROM checkpoints WHERE key = $1`, key)
	return s.wrap("delete checkpoint", err)
}
