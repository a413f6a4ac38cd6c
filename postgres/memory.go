package postgres

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

// memoryRow is a validated memory ready to insert.
type memoryRow struct {
	userID, typ, text, convID string
	time                      time.Time
	metadata                  string // JSON object
	embedder                  string
	embedding                 []float32 // nil: no vector
}

// memoryRow validates and fills m through records.Memory, shared with sqlite.
func (s *Store) memoryRow(op, userID string, m nadine.Memory) (memoryRow, error) {
	m, err := records.Memory("postgres", op, userID, m, s.now)
	if err != nil {
		return memoryRow{}, err
	}
	md, err := encodeMetadata(m.Metadata)
	if err != nil {
		return memoryRow{}, fmt.Errorf("postgres: %s: metadata: %w", op, err)
	}
	r := memoryRow{userID: userID, typ: string(m.Type), text: m.Text, convID: m.ConversationID,
		time: m.Time, metadata: md, embedder: m.Embedder}
	if len(m.Embedding) > 0 {
		r.embedding = m.Embedding
	}
	return r, nil
}

// encodeMetadata cleans keys and values first: jsonb refuses the \u0000 that
// json.Marshal writes for a NUL.
func encodeMetadata[V any](m map[string]V) (string, error) {
	if len(m) == 0 {
		return "{}", nil
	}
	c := make(map[string]any, len(m))
	for k, v := range m {
		if s, ok := any(v).(string); ok {
			c[clean(k)] = clean(s)
		} else {
			c[clean(k)] = v
		}
	}
	b, err := json.Marshal(c)
	return string(b), err
}

// insertMemory creates a new dimension's HNSW index first, noted in seen.
func (s *Store) insertMemory(ctx context.Context, tx pgx.Tx, r memoryRow, seen *newIndexes) (int64, error) {
	if err := s.ensureIndex(ctx, tx, "memories", len(r.embedding), seen); err != nil {
		return 0, err
	}
	var id int64
	err := queryRow(ctx, tx, `INSERT INTO memories
		(user_id, type, text, conversation_id, time, metadata, embedder, dims, embedding)
		VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9`+s.vecIn+`) RETURNING id`,
		r.userID, r.typ, r.text, r.convID, r.time, r.metadata, r.embedder, len(r.embedding), s.vecArg(r.embedding)).Scan(&id)
	return id, err
}

// AddMemory's type must be conversation, episode or fact; a zero Time is Now.
func (s *Store) AddMemory(ctx context.Context, m nadine.Memory) (int64, error) {
	return records.One(s.AddMemories(ctx, []nadine.Memory{m}))
}

// AddMemories is AddMemory's batch form, for imports: one transaction.
func (s *Store) AddMemories(ctx context.Context, ms []nadine.Memory) ([]int64, error) {
	rows, err := records.Rows(ms, func(m nadine.Memory) (memoryRow, error) { return s.memoryRow("add memory", m.UserID, m) })
	if err != nil || len(ms) == 0 {
		return nil, err
	}
	var (
		ids  []int64
		seen newIndexes
	)
	err = s.tx(ctx, func(tx pgx.Tx) error {
		ids, seen = make([]int64, len(rows)), seen[:0]
		for i, r := range rows {
			var err error
			if ids[i], err = s.insertMemory(ctx, tx, r, &seen); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, s.wrap("add memory", err)
	}
	s.remember(seen)
	return ids, nil
}

// memoryColumns selects a memory; the caller adds FROM and WHERE.
func (s *Store) memoryColumns() string {
	return `SELECT id, user_id, type, text, conversation_id, time, metadata, embedder, embedding` + s.vecOut
}

func scanMemory(r pgx.CollectableRow) (nadine.Memory, error) {
	var (
		m   nadine.Memory
		typ string
	)
	err := r.Scan(&m.ID, &m.UserID, &typ, &m.Text, &m.ConversationID, &m.Time, &m.Metadata, &m.Embedder, (*vecCol)(&m.Embedding))
	m.Type = nadine.MemoryType(typ)
	m.Time = utc(m.Time)
	if len(m.Metadata) == 0 {
		m.Metadata = nil
	}
	return m, err
}

// SearchMemories is exact over this user's rows (ranked by pgvector or by the
// store); scores are always the store's, so they do not depend on the server.
func (s *Store) SearchMemories(ctx context.Context, userID string, q nadine.MemoryQuery) ([]nadine.ScoredMemory, error) {
	if err := needUser("search memories", userID); err != nil {
		return nil, err
	}
	if len(q.Embedding) == 0 {
		return nil, nadine.Errorf(nadine.EINVALID, "postgres: search memories: empty query vector")
	}
	if q.K <= 0 {
		return nil, nil
	}
	filter := ` FROM memories WHERE user_id = $1 AND embedder = $2 AND dims = $3`
	args := []any{userID, q.Embedder, len(q.Embedding)}
	if len(q.Types) > 0 {
		types := make([]string, len(q.Types))
		for i, t := range q.Types {
			types[i] = string(t)
		}
		filter += ` AND type = ANY($4)`
		args = append(args, types)
	}
	var ms []nadine.Memory
	if s.vector {
		var err error
		if ms, err = s.rankOnServer(ctx, userID, q, filter, args); err != nil {
			return nil, s.wrap("search memories", err)
		}
	} else {
		rows, err := query(ctx, s.pool, `SELECT id, embedding`+filter, args...)
		if err != nil {
			return nil, s.wrap("search memories", err)
		}
		best, err := rank(rows, q.Embedding, q.K)
		if err != nil {
			return nil, s.wrap("search memories", err)
		}
		if len(best) == 0 {
			return nil, nil
		}
		rows, err = query(ctx, s.pool, s.memoryColumns()+` FROM memories WHERE user_id = $1 AND id = ANY($2)`, userID, ids(best))
		if err != nil {
			return nil, s.wrap("search memories", err)
		}
		if ms, err = pgx.CollectRows(rows, scanMemory); err != nil {
			return nil, s.wrap("search memories", err)
		}
	}
	// The vectors were read to score the top k here; the results carry none.
	return scoreTop(q.Embedding, ms, q.K, func(m nadine.Memory) int64 { return m.ID },
		func(m nadine.Memory) []float32 { return m.Embedding },
		func(m nadine.Memory, score float64) nadine.ScoredMemory {
			m.Embedding = nil
			return nadine.ScoredMemory{Memory: m, Score: score}
		}), nil
}

// rankOnServer ranks exactly up to exactLimit vectors, through HNSW above; the
// query's cast is a scalar subquery, computed once (array_in is only stable).
func (s *Store) rankOnServer(ctx context.Context, userID string, q nadine.MemoryQuery, filter string, args []any) ([]nadine.Memory, error) {
	dims := len(q.Embedding)
	var n int64
	err := queryRow(ctx, s.pool, `SELECT n FROM memory_spaces WHERE user_id = $1 AND embedder = $2 AND dims = $3`,
		userID, q.Embedder, dims).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil // no vector in this space
	}
	if err != nil {
		return nil, err
	}
	ann := false
	if s.exactLimit >= 0 && n > int64(s.exactLimit) {
		if ann, err = s.hasIndex(ctx, "memories", dims); err != nil {
			return nil, err
		}
	}
	i := len(args)
	args = append(args, q.Embedding, q.K)
	// The top k are chosen by id in a subquery, so that the columns (a
	// vector's text form costs more than its distance) are computed for
	// them only, not for every row the ranking reads.
	top := s.memoryColumns() + ` FROM memories WHERE id IN (SELECT id` + filter
	if !ann {
		rows, err := query(ctx, s.pool, top+
			fmt.Sprintf(` ORDER BY embedding <=> (SELECT $%d::real[]::vector), id LIMIT $%d)`, i+1, i+2), args...)
		if err != nil {
			return nil, err
		}
		return pgx.CollectRows(rows, scanMemory)
	}
	expr, _, typ := s.hnswExpr(dims)
	// dims as a literal implies the partial index's predicate; the order
	// is the index's expression.
	sql := top + fmt.Sprintf(` AND dims = %d ORDER BY (%s) <=> (SELECT $%d::real[]::%s) LIMIT $%d)`,
		dims, expr, i+1, typ, i+2)
	var ms []nadine.Memory
	err = s.annQuery(ctx, q.K, func(tx pgx.Tx) error {
		rows, err := query(ctx, tx, sql, args...)
		if err != nil {
			return err
		}
		ms, err = pgx.CollectRows(rows, scanMemory)
		return err
	})
	return ms, err
}

// rank decodes binary values where they lie, without a copy per row; vectors
// of another length are skipped.
func rank(rows pgx.Rows, q []float32, k int) ([]scored, error) {
	defer rows.Close()
	t := topK{k: k}
	var (
		id  int64
		raw []byte
		v   []float32
	)
	bin := rows.FieldDescriptions()[1].Format == pgx.BinaryFormatCode &&
		rows.FieldDescriptions()[0].Format == pgx.BinaryFormatCode
	for rows.Next() {
		if bin {
			vals := rows.RawValues()
			if len(vals[0]) != 8 {
				return nil, fmt.Errorf("vector row: id of %d bytes", len(vals[0]))
			}
			id, raw = int64(binary.BigEndian.Uint64(vals[0])), vals[1]
		} else if err := rows.Scan(&id, &raw); err != nil {
			return nil, err
		}
		if len(raw) != 4*len(q) {
			continue
		}
		var err error
		if v, err = records.DecodeVector(raw, v[:0]); err != nil {
			return nil, fmt.Errorf("vector of memory %d: %w", id, err)
		}
		t.offer(scored{id, cosine(q, v)})
	}
	return t.best, rows.Err()
}

func ids(ss []scored) []int64 {
	out := make([]int64, len(ss))
	for i, s := range ss {
		out[i] = s.id
	}
	return out
}

// Memories lists newest first (Time, then id), of all types when none given.
func (s *Store) Memories(ctx context.Context, userID string, types ...nadine.MemoryType) ([]nadine.Memory, error) {
	if err := needUser("memories", userID); err != nil {
		return nil, err
	}
	sql := s.memoryColumns() + ` FROM memories WHERE user_id = $1`
	args := []any{userID}
	if len(types) > 0 {
		ts := make([]string, len(types))
		for i, t := range types {
			ts[i] = string(t)
		}
		sql += ` AND type = ANY($2)`
		args = append(args, ts)
	}
	rows, err := query(ctx, s.pool, sql+` ORDER BY time DESC, id DESC`, args...)
	if err != nil {
		return nil, s.wrap("memories", err)
	}
	ms, err := pgx.CollectRows(rows, scanMemory)
	if len(ms) == 0 {
		ms = nil
	}
	return ms, s.wrap("memories", err)
}

// HasMemories is one probe of memories_user, whatever the count.
func (s *Store) HasMemories(ctx context.Context, userID string, types ...nadine.MemoryType) (bool, error) {
	if err := needUser("has memories", userID); err != nil {
		return false, err
	}
	sql := `SELECT EXISTS (SELECT 1 FROM memories WHERE user_id = $1`
	args := []any{userID}
	if len(types) > 0 {
		ts := make([]string, len(types))
		for i, t := range types {
			ts[i] = string(t)
		}
		sql += ` AND type = ANY($2)`
		args = append(args, ts)
	}
	var found bool
	if err := queryRow(ctx, s.pool, sql+`)`, args...).Scan(&found); err != nil {
		return false, s.wrap("has memories", err)
	}
	return found, nil
}

// DeleteMemories keeps the profile, the name and the conversations.
func (s *Store) DeleteMemories(ctx context.Context, userID string) error {
	if err := needUser("delete memories", userID); err != nil {
		return err
	}
	_, err := exec(ctx, s.pool, `DELETE FROM memories WHERE user_id = $1`, userID)
	return s.wrap("delete memories", err)
}

// MemoryEmbedders counts across users; memories without a vector do not count.
func (s *Store) MemoryEmbedders(ctx context.Context) (map[string]int, error) {
	return s.countByEmbedder(ctx, "memory embedders", `SELECT embedder, count(*) FROM memories WHERE dims > 0 GROUP BY embedder`)
}

// countByEmbedder runs a query of (embedder, count) rows into a map.
func (s *Store) countByEmbedder(ctx context.Context, op, sql string) (map[string]int, error) {
	rows, err := query(ctx, s.pool, sql)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	out, err := records.Counts(rows)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	return out, nil
}

// UpdateMemoryEmbedding of another user's memory is ENOTFOUND; an empty v
// leaves the memory without a vector.
func (s *Store) UpdateMemoryEmbedding(ctx context.Context, userID string, id int64, embedder string, v []float32) error {
	if err := needUser("update memory embedding", userID); err != nil {
		return err
	}
	if len(v) == 0 {
		v = nil
	}
	var seen newIndexes
	err := s.tx(ctx, func(tx pgx.Tx) error {
		seen = seen[:0]
		if err := s.ensureIndex(ctx, tx, "memories", len(v), &seen); err != nil {
			return err
		}
		tag, err := exec(ctx, tx, `UPDATE memories SET embedder = $1, dims = $2, embedding = $3`+s.vecIn+`
			WHERE user_id = $4 AND id = $5`, embedder, len(v), s.vecArg(v), userID, id)
		if err == nil && tag.RowsAffected() == 0 {
			err = nadine.Errorf(nadine.ENOTFOUND, "postgres: update memory embedding: no memory %d of user %q", id, userID)
		}
		return err
	})
	if err == nil {
		s.remember(seen)
	}
	return s.wrap("update memory embedding", err)
}
