package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

// memoryRow is a validated memory ready to insert.
type memoryRow struct {
	userID, typ, text, convID string
	timeUS                    int64
	metadata                  string
	embedder                  string
	dims                      int
	embedding                 []byte
	norm                      float32 // of the embedding, for the vector index
}

// memoryRow validates and fills m through records.Memory, shared with postgres.
func (s *Store) memoryRow(op, userID string, m nadine.Memory) (memoryRow, error) {
	m, err := records.Memory("sqlite", op, userID, m, s.now)
	if err != nil {
		return memoryRow{}, err
	}
	b, err := json.Marshal(m.Metadata)
	if err != nil {
		return memoryRow{}, fmt.Errorf("sqlite: %s: metadata: %w", op, err)
	}
	return memoryRow{
		userID:    userID,
		typ:       string(m.Type),
		text:      m.Text,
		convID:    m.ConversationID,
		timeUS:    toMicros(m.Time),
		metadata:  string(b),
		embedder:  m.Embedder,
		dims:      len(m.Embedding),
		embedding: records.EncodeVector(m.Embedding),
		norm:      norm(m.Embedding),
	}, nil
}

const insertMemorySQL = `INSERT INTO memories
	(user_id, type, text, conversation_id, time_us, metadata, embedder, dims, embedding)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`

func (r memoryRow) args() []any {
	return []any{r.userID, r.typ, r.text, r.convID, r.timeUS, r.metadata, r.embedder, r.dims, r.embedding}
}

// insertMemories runs in the caller's transaction, so rows and index change together.
func insertMemories(ctx context.Context, tx *sql.Tx, rows []memoryRow) ([]int64, error) {
	stmt, err := tx.PrepareContext(ctx, insertMemorySQL)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	ids := make([]int64, len(rows))
	for i, r := range rows {
		res, err := stmt.ExecContext(ctx, r.args()...)
		if err != nil {
			return nil, err
		}
		if ids[i], err = res.LastInsertId(); err != nil {
			return nil, err
		}
	}
	if err := indexMemories(ctx, tx, rows, ids); err != nil {
		return nil, err
	}
	return ids, nil
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
	var ids []int64
	mark := s.cache.mark()
	err = s.write(ctx, func(tx *sql.Tx) error {
		var err error
		ids, err = insertMemories(ctx, tx, rows)
		return err
	})
	s.cacheAdded(mark, rows, ids, err)
	if err != nil {
		return nil, s.wrap("add memory", err)
	}
	return ids, nil
}

// cacheAdded adds a write's vectors to the cached sets, or drops the sets when
// the write failed; mark is the cache's mark taken before the write.
func (s *Store) cacheAdded(mark uint64, rows []memoryRow, ids []int64, err error) {
	byUser := map[string][]vecEntry{}
	for i, r := range rows {
		es := byUser[r.userID]
		if err == nil && r.dims > 0 {
			v, derr := records.DecodeVector(r.embedding, nil)
			if derr != nil {
				err = derr // never: memoryRow encoded it
			}
			es = append(es, vecEntry{id: ids[i], kind: kindCode(nadine.MemoryType(r.typ)), embedder: r.embedder, norm: r.norm, vec: v})
		}
		byUser[r.userID] = es
	}
	for u, es := range byUser {
		switch {
		case err != nil:
			s.cache.invalidate(userKey(u))
			continue
		case len(es) == 0:
			continue // no vector: the user's set is unchanged
		}
		s.cache.appendTo(userKey(u), mark, func(set *vecSet) *vecSet { return set.appended(es) })
	}
}

// userVectors reads the user's index blocks on a cache miss.
func (s *Store) userVectors(ctx context.Context, userID string) (*vecSet, error) {
	return s.cache.get(ctx, userKey(userID), func() (*vecSet, error) {
		return s.loadVectors(ctx, userID)
	})
}

// WarmMemories loads a recognized person's vectors in the background so their
// first search finds them ready or joins the load. Close stops it.
func (s *Store) WarmMemories(userID string) {
	if userID == "" || !s.cache.enabled() || s.cache.holds(userKey(userID)) {
		return
	}
	s.warmMu.Lock()
	defer s.warmMu.Unlock()
	if s.warmClosed {
		return
	}
	s.warming.Go(func() {
		// A set the cache cannot keep would be loaded again at every
		// sighting, for nothing: its searches load it anyway.
		n, err := s.vectorCount(s.warm, userID)
		if err == nil && s.setBytes(n)+64*n.blocks > s.cache.limit {
			return
		}
		if err == nil {
			_, err = s.userVectors(s.warm, userID)
		}
		if err != nil && s.warm.Err() == nil {
			s.log.Warn("sqlite: memory vectors not loaded ahead", "user_id", nadine.PersonID(userID), "err", err)
		}
	})
}

// scanVectors makes kind-0 vectors: the knowledge base's.
func scanVectors(rows *sql.Rows) (*vecSet, error) {
	defer rows.Close()
	var (
		b        setBuilder
		id       int64
		embedder string
		blob     sql.RawBytes // valid until the next row: decoded at once
		v        []float32    // reused: add copies it
	)
	for rows.Next() {
		if err := rows.Scan(&id, &embedder, &blob); err != nil {
			return nil, err
		}
		var err error
		if v, err = records.DecodeVector(blob, v); err != nil {
			return nil, fmt.Errorf("vector of row %d: %w", id, err)
		}
		if len(v) > 0 {
			b.add(id, kindNone, embedder, v)
		}
	}
	return &b.set, rows.Err()
}

// SearchMemories is exact cosine over this user's rows only, comparing
// vectors of q.Embedder and the query's dimension.
func (s *Store) SearchMemories(ctx context.Context, userID string, q nadine.MemoryQuery) ([]nadine.ScoredMemory, error) {
	if err := needUser("search memories", userID); err != nil {
		return nil, err
	}
	if len(q.Embedding) == 0 {
		return nil, nadine.Errorf(nadine.EINVALID, "sqlite: search memories: empty query vector")
	}
	if q.K <= 0 {
		return nil, nil
	}
	if s.cache.enabled() {
		set, err := s.userVectors(ctx, userID)
		if err != nil {
			return nil, s.wrap("search memories", err)
		}
		if !set.quantized {
			return s.memoriesOf(ctx, userID, set.topK(q.Embedding, q.Embedder, q.K, kindMask(q.Types)))
		}
		if ids := set.candidatesFrom(q.Embedding, q.Embedder, q.K, kindMask(q.Types), s.parallelFrom); len(ids) <= maxCandidates {
			return s.rerank(ctx, userID, q, ids)
		}
		// The bound kept too many (near-identical vectors): the exact scan
		// decides.
	}
	best, err := s.searchIndex(ctx, userID, q.Embedding, q.Embedder, q.K, kindMask(q.Types))
	if err != nil {
		return nil, s.wrap("search memories", err)
	}
	return s.memoriesOf(ctx, userID, best)
}

// maxCandidates bounds the candidates of a quantized search whose exact
// scores are read from the memories table.
const maxCandidates = 2048

// memoriesOf keeps best's order and leaves the vectors out.
func (s *Store) memoriesOf(ctx context.Context, userID string, best []scored) ([]nadine.ScoredMemory, error) {
	if len(best) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(best))
	for i, b := range best {
		ids[i] = b.id
	}
	ms, err := s.memoriesByID(ctx, userID, ids, false)
	if err != nil {
		return nil, s.wrap("search memories", err)
	}
	byID := make(map[int64]nadine.Memory, len(ms))
	for _, m := range ms {
		byID[m.ID] = m
	}
	out := make([]nadine.ScoredMemory, 0, len(best))
	for _, b := range best {
		if m, ok := byID[b.id]; ok { // a row deleted since the vectors were read is left out
			out = append(out, nadine.ScoredMemory{Memory: m, Score: b.score})
		}
	}
	return out, nil
}

// rerank scores a quantized search's candidates with cosineScore, so the
// results equal the exact search's.
func (s *Store) rerank(ctx context.Context, userID string, q nadine.MemoryQuery, ids []int64) ([]nadine.ScoredMemory, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	ms, err := s.memoriesByID(ctx, userID, ids, true)
	if err != nil {
		return nil, s.wrap("search memories", err)
	}
	qn := float64(norm(q.Embedding))
	var best topHeap
	byID := make(map[int64]nadine.Memory, len(ms))
	for _, m := range ms {
		if m.Embedder != q.Embedder || len(m.Embedding) != len(q.Embedding) {
			continue // changed since the vectors were read
		}
		best.offer(scored{m.ID, cosineScore(q.Embedding, qn, m.Embedding, norm(m.Embedding))}, q.K)
		m.Embedding = nil
		byID[m.ID] = m
	}
	sr := search{best: best}
	top := sr.result()
	out := make([]nadine.ScoredMemory, len(top))
	for i, b := range top {
		out[i] = nadine.ScoredMemory{Memory: byID[b.id], Score: b.score}
	}
	return out, nil
}

// memoriesByID's "+user_id" keeps the planner on the primary key rather than
// the (user_id, type) index: a handful of rowid lookups.
func (s *Store) memoriesByID(ctx context.Context, userID string, ids []int64, withVector bool) ([]nadine.Memory, error) {
	cols := memoryFields
	if withVector {
		cols = memoryColumns
	}
	var out []nadine.Memory
	for len(ids) > 0 {
		n := min(len(ids), 500)
		args := make([]any, 0, n+1)
		args = append(args, userID)
		for _, id := range ids[:n] {
			args = append(args, id)
		}
		// Rows scattered over the file, read once: without the map.
		rows, err := s.u.QueryContext(ctx, cols+` WHERE +user_id = ? AND id IN (?`+strings.Repeat(", ?", n-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		ms, err := scanMemories(rows, withVector)
		if err != nil {
			return nil, err
		}
		out = append(out, ms...)
		ids = ids[n:]
	}
	return out, nil
}

const (
	memoryFields = `SELECT id, user_id, type, text, conversation_id, time_us, metadata,
	embedder FROM memories`
	memoryColumns = `SELECT id, user_id, type, text, conversation_id, time_us, metadata,
	embedder, embedding FROM memories`
)

// scanMemories reads memoryFields instead when withVector is false.
func scanMemories(rows *sql.Rows, withVector bool) ([]nadine.Memory, error) {
	defer rows.Close()
	var ms []nadine.Memory
	for rows.Next() {
		var (
			m        nadine.Memory
			typ, md  string
			timeUS   int64
			blob     []byte
			embedErr error
		)
		dst := []any{&m.ID, &m.UserID, &typ, &m.Text, &m.ConversationID, &timeUS, &md, &m.Embedder}
		if withVector {
			dst = append(dst, &blob)
		}
		if err := rows.Scan(dst...); err != nil {
			return nil, err
		}
		m.Type = nadine.MemoryType(typ)
		m.Time = fromMicros(timeUS)
		if md != "" && md != "{}" {
			if err := json.Unmarshal([]byte(md), &m.Metadata); err != nil {
				return nil, fmt.Errorf("memory %d: metadata: %w", m.ID, err)
			}
		}
		if len(blob) > 0 {
			if m.Embedding, embedErr = records.DecodeVector(blob, nil); embedErr != nil {
				return nil, fmt.Errorf("memory %d: %w", m.ID, embedErr)
			}
		}
		ms = append(ms, m)
	}
	return ms, rows.Err()
}

// Memories lists newest first (Time, then id), of all types when none given.
func (s *Store) Memories(ctx context.Context, userID string, types ...nadine.MemoryType) ([]nadine.Memory, error) {
	if err := needUser("memories", userID); err != nil {
		return nil, err
	}
	query := memoryColumns + ` WHERE user_id = ?`
	args := []any{userID}
	if len(types) > 0 {
		query += ` AND type IN (?` + strings.Repeat(", ?", len(types)-1) + `)`
		for _, t := range types {
			args = append(args, string(t))
		}
	}
	rows, err := s.r.QueryContext(ctx, query+` ORDER BY time_us DESC, id DESC`, args...)
	if err != nil {
		return nil, s.wrap("memories", err)
	}
	ms, err := scanMemories(rows, true)
	return ms, s.wrap("memories", err)
}

// HasMemories is one probe of the (user_id, type) index, whatever the count.
func (s *Store) HasMemories(ctx context.Context, userID string, types ...nadine.MemoryType) (bool, error) {
	if err := needUser("has memories", userID); err != nil {
		return false, err
	}
	query := `SELECT EXISTS (SELECT 1 FROM memories WHERE user_id = ?`
	args := []any{userID}
	if len(types) > 0 {
		query += ` AND type IN (?` + strings.Repeat(", ?", len(types)-1) + `)`
		for _, t := range types {
			args = append(args, string(t))
		}
	}
	var found bool
	if err := s.r.QueryRowContext(ctx, query+`)`, args...).Scan(&found); err != nil {
		return false, s.wrap("has memories", err)
	}
	return found, nil
}

// DeleteMemories keeps profile, name and conversations, and like ForgetUser
// leaves the erased text nowhere in the files.
func (s *Store) DeleteMemories(ctx context.Context, userID string) error {
	if err := needUser("delete memories", userID); err != nil {
		return err
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM memories WHERE user_id = ?`, userID); err != nil {
			return err
		}
		return indexDeleteUser(ctx, tx, userID)
	})
	s.cache.invalidate(userKey(userID))
	if err == nil {
		err = s.truncateWAL(ctx)
	}
	return s.wrap("delete memories", err)
}

// MemoryEmbedders counts from the vector index's small columns, read without
// the map: counting the memories table mapped every row of it.
func (s *Store) MemoryEmbedders(ctx context.Context) (map[string]int, error) {
	return s.countByEmbedder(ctx, s.u, "memory embedders", `SELECT embedder, sum(count) FROM memory_vectors GROUP BY embedder`)
}

// countByEmbedder runs a query of (embedder, count) rows into a map.
func (s *Store) countByEmbedder(ctx context.Context, db queryer, op, query string) (map[string]int, error) {
	rows, err := db.QueryContext(ctx, query)
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
	entry := indexEntry{id: id, norm: norm(v), vec: records.EncodeVector(v)}
	err := s.write(ctx, func(tx *sql.Tx) error {
		var (
			typ, oldEmbedder string
			oldBytes         int
		)
		// The index files a vector under its length, as the migration
		// does (and as searches always compared it).
		err := tx.QueryRowContext(ctx, `SELECT type, embedder,
			CASE WHEN dims > 0 THEN coalesce(length(embedding), 0) ELSE 0 END
			FROM memories WHERE user_id = ? AND id = ?`, userID, id).Scan(&typ, &oldEmbedder, &oldBytes)
		if errors.Is(err, sql.ErrNoRows) {
			return nadine.Errorf(nadine.ENOTFOUND, "sqlite: update memory embedding: no memory %d of user %q", id, userID)
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE memories SET embedder = ?, dims = ?, embedding = ?
			WHERE user_id = ? AND id = ?`, embedder, len(v), entry.vec, userID, id); err != nil {
			return err
		}
		oldDims := 0
		if oldBytes%4 == 0 {
			oldDims = oldBytes / 4
		}
		entry.kind = kindCode(nadine.MemoryType(typ))
		return s.reindexMemory(ctx, tx, userID, oldEmbedder, oldDims, embedder, len(v), entry)
	})
	s.cache.invalidate(userKey(userID))
	return s.wrap("update memory embedding", err)
}

// reindexMemory adds the new entry even when the old one is missing (an index
// out of step), logging it, so the index heals.
func (s *Store) reindexMemory(ctx context.Context, tx *sql.Tx, userID, oldEmbedder string, oldDims int,
	embedder string, dims int, e indexEntry) error {
	if oldDims > 0 && oldEmbedder == embedder && oldDims == dims {
		found, err := indexReplace(ctx, tx, userID, embedder, dims, e)
		if err != nil || found {
			return err
		}
		s.log.Warn("sqlite: memory vector missing from the index", "user_id", nadine.PersonID(userID), "id", e.id)
		return indexAppend(ctx, tx, userID, embedder, dims, []indexEntry{e})
	}
	if oldDims > 0 {
		found, err := indexRemove(ctx, tx, userID, oldEmbedder, oldDims, e.id)
		if err != nil {
			return err
		}
		if !found {
			s.log.Warn("sqlite: memory vector missing from the index", "user_id", nadine.PersonID(userID), "id", e.id)
		}
	}
	if dims > 0 {
		return indexAppend(ctx, tx, userID, embedder, dims, []indexEntry{e})
	}
	return nil
}
