package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/nadine-robot/nadine"
)

// knowledgeIndexLock is the key of the advisory lock under which a
// knowledge HNSW index is created, so that two processes do not race.
const knowledgeIndexLock = migrationLock + 1

// hnswExpr returns the indexed expression and the operator class of the
// HNSW index over knowledge vectors of dims dimensions, or "" when pgvector
// cannot index that many: vector up to 2,000 dimensions, a halfvec
// expression up to 4,000 (pgvector 0.7 and later).
func (s *Store) hnswExpr(dims int) (expr, ops string) {
	switch {
	case dims <= 0:
		return "", ""
	case dims <= 2000:
		return fmt.Sprintf("embedding::vector(%d)", dims), "vector_cosine_ops"
	case dims <= 4000 && s.vectorAtLeast(0, 7):
		return fmt.Sprintf("embedding::halfvec(%d)", dims), "halfvec_cosine_ops"
	}
	return "", ""
}

// ensureKnowledgeIndex creates the HNSW index of knowledge vectors of dims
// dimensions when pgvector can index them and it is missing. The index is
// partial (WHERE dims = n), so that one table holds every dimension.
func (s *Store) ensureKnowledgeIndex(ctx context.Context, tx pgx.Tx, dims int) error {
	expr, ops := s.hnswExpr(dims)
	if expr == "" {
		return nil
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(knowledgeIndexLock)); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, fmt.Sprintf(`CREATE INDEX IF NOT EXISTS knowledge_hnsw_%d ON knowledge
		USING hnsw ((%s) %s) WHERE dims = %d`, dims, expr, ops, dims))
	return err
}

// AddKnowledge stores knowledge chunks in one transaction. With pgvector it
// first creates the HNSW index of each new dimension.
func (s *Store) AddKnowledge(ctx context.Context, chunks []nadine.KnowledgeChunk) error {
	if len(chunks) == 0 {
		return nil
	}
	mds := make([]string, len(chunks))
	for i, c := range chunks {
		md, err := encodeMetadata(c.Metadata)
		if err != nil {
			return fmt.Errorf("postgres: add knowledge: metadata of %q: %w", c.Title, err)
		}
		mds[i] = md
	}
	err := s.tx(ctx, func(tx pgx.Tx) error {
		if s.vector {
			seen := map[int]bool{}
			for _, c := range chunks {
				if d := len(c.Embedding); !seen[d] {
					seen[d] = true
					if err := s.ensureKnowledgeIndex(ctx, tx, d); err != nil {
						return err
					}
				}
			}
		}
		for i, c := range chunks {
			v := c.Embedding
			if len(v) == 0 {
				v = nil
			}
			if _, err := exec(ctx, tx, `INSERT INTO knowledge (source, title, text, metadata, embedder, dims, embedding)
				VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7`+s.vecIn+`)`,
				c.Source, c.Title, c.Text, mds[i], c.Embedder, len(v), v); err != nil {
				return err
			}
		}
		return nil
	})
	return s.wrap("add knowledge", err)
}

const knowledgeColumns = `SELECT id, source, title, text, metadata, embedder, embedding`

func scanChunk(r pgx.CollectableRow) (nadine.KnowledgeChunk, error) {
	var c nadine.KnowledgeChunk
	err := r.Scan(&c.ID, &c.Source, &c.Title, &c.Text, &c.Metadata, &c.Embedder, &c.Embedding)
	if len(c.Metadata) == 0 {
		c.Metadata = nil
	}
	return c, err
}

// SearchKnowledge returns the k knowledge chunks most similar to embedding,
// best first, comparing only vectors of embedder with the same dimension.
// With pgvector the server ranks them through the dimension's HNSW index
// (approximate once the base is large; pgvector 0.8 and later scan on
// until k chunks of the embedder are found); on stock PostgreSQL the store
// ranks every vector of that space. k <= 0 returns nothing; an empty vector
// is EINVALID.
func (s *Store) SearchKnowledge(ctx context.Context, embedding []float32, embedder string, k int) ([]nadine.ScoredChunk, error) {
	if len(embedding) == 0 {
		return nil, nadine.Errorf(nadine.EINVALID, "postgres: search knowledge: empty query vector")
	}
	if k <= 0 {
		return nil, nil
	}
	dims := len(embedding)
	var chunks []nadine.KnowledgeChunk
	if s.vector {
		err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			order := `embedding <=> $2::real[]::vector`
			if expr, _ := s.hnswExpr(dims); expr != "" {
				// The very expression of the partial index, so that the
				// planner may use it.
				typ := "vector"
				if dims > 2000 {
					typ = "halfvec"
				}
				order = fmt.Sprintf(`(%s) <=> $2::real[]::%s(%d)`, expr, typ, dims)
				if _, err := tx.Exec(ctx, `SELECT set_config('hnsw.ef_search', $1, true)`, fmt.Sprint(max(40, 2*k))); err != nil {
					return err
				}
				if s.vectorAtLeast(0, 8) {
					if _, err := tx.Exec(ctx, `SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)`); err != nil {
						return err
					}
				}
			}
			rows, err := query(ctx, tx, knowledgeColumns+`::real[] FROM knowledge WHERE embedder = $1 AND dims = `+
				fmt.Sprint(dims)+` ORDER BY `+order+` LIMIT $3`, embedder, embedding, k)
			if err != nil {
				return err
			}
			chunks, err = pgx.CollectRows(rows, scanChunk)
			return err
		})
		if err != nil {
			return nil, s.wrap("search knowledge", err)
		}
	} else {
		rows, err := query(ctx, s.pool, `SELECT id, embedding FROM knowledge WHERE embedder = $1 AND dims = $2`, embedder, dims)
		if err != nil {
			return nil, s.wrap("search knowledge", err)
		}
		best, err := rank(rows, embedding, k)
		if err != nil {
			return nil, s.wrap("search knowledge", err)
		}
		if len(best) == 0 {
			return nil, nil
		}
		rows, err = query(ctx, s.pool, knowledgeColumns+` FROM knowledge WHERE id = ANY($1)`, ids(best))
		if err != nil {
			return nil, s.wrap("search knowledge", err)
		}
		if chunks, err = pgx.CollectRows(rows, scanChunk); err != nil {
			return nil, s.wrap("search knowledge", err)
		}
	}
	t := topK{k: k}
	byID := make(map[int64]nadine.KnowledgeChunk, len(chunks))
	for _, c := range chunks {
		byID[c.ID] = c
		t.offer(scored{c.ID, cosine(embedding, c.Embedding)})
	}
	if len(t.best) == 0 {
		return nil, nil
	}
	out := make([]nadine.ScoredChunk, len(t.best))
	for i, b := range t.best {
		out[i] = nadine.ScoredChunk{KnowledgeChunk: byID[b.id], Score: b.score}
	}
	return out, nil
}

// KnowledgeCount returns how many knowledge chunks are stored.
func (s *Store) KnowledgeCount(ctx context.Context) (int, error) {
	var n int
	err := queryRow(ctx, s.pool, `SELECT count(*) FROM knowledge`).Scan(&n)
	return n, s.wrap("knowledge count", err)
}

// KnowledgeEmbedders counts knowledge vectors per embedder name.
func (s *Store) KnowledgeEmbedders(ctx context.Context) (map[string]int, error) {
	return s.countByEmbedder(ctx, "knowledge embedders", `SELECT embedder, count(*) FROM knowledge GROUP BY embedder`)
}

// ClearKnowledge deletes the whole knowledge base.
func (s *Store) ClearKnowledge(ctx context.Context) error {
	_, err := exec(ctx, s.pool, `DELETE FROM knowledge`)
	return s.wrap("clear knowledge", err)
}
