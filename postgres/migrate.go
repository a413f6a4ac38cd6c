package postgres

import (
	"context"
	"embed"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/migrations"
	"github.com/nadine-robot/nadine/internal/records"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migrationLock serializes the migrations of processes starting at once.
const migrationLock = 0x6e6164696e65 // "nadine"

type migration struct {
	migrations.Migration
	vector bool // "-- requires: vector": applied only where pgvector is usable
}

// loadMigrations: a first line "-- requires: vector" needs pgvector.
func loadMigrations() ([]migration, error) {
	all, err := migrations.Load(migrationFS, "migrations")
	if err != nil {
		return nil, err
	}
	ms := make([]migration, len(all))
	for i, m := range all {
		first, _, _ := strings.Cut(m.SQL, "\n")
		ms[i] = migration{Migration: m, vector: strings.TrimSpace(first) == "-- requires: vector"}
	}
	return ms, nil
}

// migrate skips a pgvector migration until a start finds the extension usable,
// so it must not depend on a later migration, nor a later one on it.
func (s *Store) migrate(ctx context.Context, schema string, mode VectorMode) (int, error) {
	ms, err := loadMigrations()
	if err != nil {
		return 0, fmt.Errorf("postgres: migrate: %w", err)
	}
	var version int
	err = s.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLock)); err != nil {
			return err
		}
		if schema != "" {
			if _, err := tx.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{schema}.Sanitize()); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version    integer PRIMARY KEY,
			name       text NOT NULL,
			applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
			return err
		}
		applied := map[int]bool{}
		rows, err := tx.Query(ctx, `SELECT version FROM schema_migrations`)
		if err != nil {
			return err
		}
		vs, err := pgx.CollectRows(rows, pgx.RowTo[int])
		if err != nil {
			return err
		}
		for _, v := range vs {
			applied[v] = true
			version = max(version, v)
		}
		if n := len(ms); n > 0 && version > ms[n-1].Version {
			return nadine.Errorf(nadine.EINVALID, "postgres: migrate: database schema version %d is newer than this program's %d",
				version, ms[n-1].Version)
		}
		vectorReady := false
		for _, m := range ms {
			if applied[m.Version] {
				if m.vector {
					s.vector = true
				}
				continue
			}
			if m.vector {
				if !vectorReady {
					if vectorReady, err = s.ensureVector(ctx, tx, schema, mode); err != nil {
						return err
					}
				}
				if !vectorReady {
					continue
				}
				s.vector = true
			}
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return fmt.Errorf("%s: %w", m.Name, err)
			}
			if step := migrationStep(m.Version); step != nil {
				if err := step(ctx, tx); err != nil {
					return fmt.Errorf("%s: %w", m.Name, err)
				}
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.Version, m.Name); err != nil {
				return err
			}
			version = max(version, m.Version)
			s.log.Info("postgres: applied migration", "migration", m.Name)
		}
		return nil
	})
	if err != nil {
		return 0, s.wrap("migrate "+s.where, err)
	}
	if mode == VectorRequired && !s.vector {
		return 0, nadine.Errorf(nadine.EINVALID, "postgres: migrate %s: pgvector is required but not installed", s.where)
	}
	return version, nil
}

// ensureVector installs pgvector when the server has it and the role may; a
// failed install is logged and leaves stock PostgreSQL, unless mode requires it.
func (s *Store) ensureVector(ctx context.Context, tx pgx.Tx, schema string, mode VectorMode) (bool, error) {
	if mode == VectorOff {
		return false, nil
	}
	var installed, available bool
	if err := tx.QueryRow(ctx, `SELECT
		EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector'),
		EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector')`).Scan(&installed, &available); err != nil {
		return false, err
	}
	if installed {
		return true, nil
	}
	if !available {
		return false, nil
	}
	create := `CREATE EXTENSION IF NOT EXISTS vector`
	if schema != "" {
		create += ` SCHEMA public`
	}
	// A savepoint keeps the migration's transaction usable when this user
	// may not install extensions.
	if _, err := tx.Exec(ctx, `SAVEPOINT install_vector`); err != nil {
		return false, err
	}
	if _, err := tx.Exec(ctx, create); err != nil {
		if mode == VectorRequired {
			return false, fmt.Errorf("install pgvector: %w", err)
		}
		s.log.Warn("postgres: pgvector is available but could not be installed; using stock PostgreSQL", "err", err)
		_, rerr := tx.Exec(ctx, `ROLLBACK TO SAVEPOINT install_vector`)
		return false, rerr
	}
	_, err := tx.Exec(ctx, `RELEASE SAVEPOINT install_vector`)
	return err == nil, err
}

// migrationStep is a version's Go code, run after its SQL in the same transaction.
func migrationStep(version int) func(context.Context, pgx.Tx) error {
	switch version {
	case 2: // the bytea vectors copied into the new vector columns
		return copyVectors
	}
	return nil
}

// copyVectors fills embedding_vector from the bytea embeddings, a thousand rows
// at a time.
func copyVectors(ctx context.Context, tx pgx.Tx) error {
	for _, table := range []string{"memories", "knowledge"} {
		for after := int64(0); ; {
			rows, err := tx.Query(ctx, `SELECT id, embedding FROM `+table+`
				WHERE embedding IS NOT NULL AND id > $1 ORDER BY id LIMIT 1000`, after)
			if err != nil {
				return err
			}
			type row struct {
				id  int64
				vec []float32
			}
			batch, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
				var x row
				var b []byte
				if err := r.Scan(&x.id, &b); err != nil {
					return x, err
				}
				var err error
				x.vec, err = records.DecodeVector(b, nil)
				return x, err
			})
			if err != nil {
				return fmt.Errorf("%s: %w", table, err)
			}
			if len(batch) == 0 {
				break
			}
			for _, x := range batch {
				if _, err := tx.Exec(ctx, `UPDATE `+table+` SET embedding_vector = $1::real[]::vector WHERE id = $2`,
					x.vec, x.id); err != nil {
					return fmt.Errorf("%s %d: %w", table, x.id, err)
				}
			}
			after = batch[len(batch)-1].id
		}
	}
	return nil
}
