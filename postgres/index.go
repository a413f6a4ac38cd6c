package postgres

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
)

// indexLock serializes HNSW index creation, so two processes storing a
// dimension's first vector at once do not race.
const indexLock = migrationLock + 1

// hnswTables are the tables with per-dimension HNSW indexes (pgvector).
var hnswTables = map[string]bool{"memories": true, "knowledge": true}

// hnswExpr returns "" beyond what pgvector can index: vector up to 2,000
// dimensions, a halfvec expression up to 4,000 (pgvector 0.7+).
func (s *Store) hnswExpr(dims int) (expr, ops, typ string) {
	switch {
	case !s.vector || dims <= 0:
		return "", "", ""
	case dims <= 2000:
		typ = fmt.Sprintf("vector(%d)", dims)
		return "embedding::" + typ, "vector_cosine_ops", typ
	case dims <= 4000 && s.vectorAtLeast(0, 7):
		typ = fmt.Sprintf("halfvec(%d)", dims)
		return "embedding::" + typ, "halfvec_cosine_ops", typ
	}
	return "", "", ""
}

// indexName returns the name of table's HNSW index of dims dimensions.
func indexName(table string, dims int) string { return fmt.Sprintf("%s_hnsw_%d", table, dims) }

// newIndexes are remembered only once their transaction commits.
type newIndexes []string

// ensureIndex's index is partial (WHERE dims = n) so one table holds every
// dimension, and indexes the cast expression searches order by.
func (s *Store) ensureIndex(ctx context.Context, tx pgx.Tx, table string, dims int, seen *newIndexes) error {
	expr, ops, _ := s.hnswExpr(dims)
	name := indexName(table, dims)
	if expr == "" || !hnswTables[table] {
		return nil
	}
	if _, ok := s.indexes.Load(name); ok || slices.Contains(*seen, name) {
		return nil
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(indexLock)); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %s ON %s USING hnsw ((%s) %s) WHERE dims = %d`,
		name, table, expr, ops, dims)); err != nil {
		return err
	}
	*seen = append(*seen, name)
	return nil
}

// remember records indexes that a committed transaction created or found.
func (s *Store) remember(seen newIndexes) {
	for _, name := range seen {
		s.indexes.Store(name, true)
	}
}

// hasIndex reports whether table's HNSW index of dims dimensions exists.
func (s *Store) hasIndex(ctx context.Context, table string, dims int) (bool, error) {
	if expr, _, _ := s.hnswExpr(dims); expr == "" {
		return false, nil
	}
	name := indexName(table, dims)
	if _, ok := s.indexes.Load(name); ok {
		return true, nil
	}
	var ok bool
	if err := s.pool.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, name).Scan(&ok); err != nil {
		return false, err
	}
	if ok {
		s.indexes.Store(name, true)
	}
	return ok, nil
}

// annQuery widens HNSW scans to max(efSearch, 2k) and, from pgvector 0.8, scans
// on until the WHERE clause (one user, one embedder) leaves enough rows.
func (s *Store) annQuery(ctx context.Context, k int, fn func(tx pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		sets := `SELECT set_config('hnsw.ef_search', $1, true)`
		if s.vectorAtLeast(0, 8) {
			sets += `, set_config('hnsw.iterative_scan', 'relaxed_order', true)`
		}
		if _, err := tx.Exec(ctx, sets, fmt.Sprint(max(s.efSearch, 2*k))); err != nil {
			return err
		}
		return fn(tx)
	})
}
