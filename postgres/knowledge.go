package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/nadine-robot/nadine"
)

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
	var seen newIndexes
	err := s.tx(ctx, func(tx pgx.Tx) error {
		seen = seen[:0]
		for i, c := range chunks {
			if err := s.ensureIndex(ctx, tx, "knowledge", len(c.Embedding), &seen); err != nil {
				return err
			}
			v := c.Embedding
			if len(v) == 0 {
				v = nil
			}
			if _, err := exec(ctx, tx, `INSERT INTO knowledge (source, title, text, metadata, embedder, dims, embedding)
				VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7`+s.vecIn+`)`,
				c.Source, c.Title, c.Text, mds[i], c.Embedder, len(v), s.vecArg(v)); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		s.remember(seen)
	}
	return s.wrap("add knowledge", err)
}

// knowledgeColumns selects a chunk; the caller adds FROM and WHERE.
func (s *Store) knowledgeColumns() string {
	return `SELECT id, source, title, text, metadata, embedder, embedding` + s.vecOut
}

func scanChunk(r pgx.CollectableRow) (nadine.KnowledgeChunk, error) {
	var c nadine.KnowledgeChunk
	err := r.Scan(&c.ID, &c.Source, &c.Title, &c.Text, &c.Metadata, &c.Embedder, (*vecCol)(&c.Embedding))
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
		order := `embedding <=> (SELECT $2::real[]::vector)` // computed once (see rankOnServer)
		if expr, _, typ := s.hnswExpr(dims); expr != "" {
			// The very expression of the partial index, so that the
			// planner may use it.
			order = fmt.Sprintf(`(%s) <=> (SELECT $2::real[]::%s)`, expr, typ)
		}
		err := s.annQuery(ctx, k, func(tx pgx.Tx) error {
			// The top k by id first, then their columns (see rankOnServer).
			rows, err := query(ctx, tx, s.knowledgeColumns()+` FROM knowledge WHERE id IN (SELECT id FROM knowledge
				WHERE embedder = $1 AND dims = `+fmt.Sprint(dims)+` ORDER BY `+order+` LIMIT $3)`, embedder, embedding, k)
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
		rows, err = query(ctx, s.pool, s.knowledgeColumns()+` FROM knowledge WHERE id = ANY($1)`, ids(best))
		if err != nil {
			return nil, s.wrap("search knowledge", err)
		}
		if chunks, err = pgx.CollectRows(rows, scanChunk); err != nil {
			return nil, s.wrap("search knowledge", err)
		}
	}
	return scoreTop(embedding, chunks, k, func(c nadine.KnowledgeChunk) int64 { return c.ID },
		func(c nadine.KnowledgeChunk) []float32 { return c.Embedding },
		func(c nadine.KnowledgeChunk, score float64) nadine.ScoredChunk {
			return nadine.ScoredChunk{KnowledgeChunk: c, Score: score}
		}), nil
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
