package postgres

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5"
)

// DropSchema drops a schema and everything in it, through the store's own
// pool (PGlite's server takes one connection at a time), for the tests of
// package postgres_test.
func DropSchema(ctx context.Context, s *Store, schema string) error {
	_, err := s.pool.Exec(ctx, `DROP SCHEMA IF EXISTS `+pgx.Identifier{schema}.Sanitize()+` CASCADE`)
	return err
}

// QueryStrings runs a query of one text column through the store's pool.
func QueryStrings(ctx context.Context, s *Store, sql string, args ...any) ([]string, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Exec runs a statement through the store's pool.
func Exec(ctx context.Context, s *Store, sql string, args ...any) error {
	_, err := s.pool.Exec(ctx, sql, args...)
	return err
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }
