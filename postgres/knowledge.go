package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

// AddKnowledge creates each new dimension's HNSW index first (with pgvector),
// in the same transaction as the chunks.
func (s *Store) AddKnowledge(ctx context.Context, chunks []nadine.KnowledgeChunk) error {
	if len(chunks) == 0 {
		return nil
	}
	mds, err := records.KnowledgeMetadata(chunks, encodeMetadata)
	if err != nil {
		return fmt.Errorf("postgres: add knowledge: %w", err)
	}
	var seen newIndexes
	err = s.tx(ctx, func(tx pgx.Tx) error {
		seen = seen[:0]
		for _, c := range chunks {
			if _, err := exec(ctx, tx, `INSERT INTO knowledge_sources (key, name) VALUES ($1, $1) ON CONFLICT (key) DO NOTHING`, c.Source); err != nil {
				return err
			}
		}
		return s.insertChunks(ctx, tx, chunks, mds, func(c nadine.KnowledgeChunk) string { return c.Source }, &seen)
	})
	if err == nil {
		s.remember(seen)
	}
	return s.wrap("add knowledge", err)
}

// insertChunks creates each new dimension's HNSW index first (with pgvector).
func (s *Store) insertChunks(ctx context.Context, tx pgx.Tx, chunks []nadine.KnowledgeChunk, mds []string,
	key func(nadine.KnowledgeChunk) string, seen *newIndexes) error {
	for i, c := range chunks {
		if err := s.ensureIndex(ctx, tx, "knowledge", len(c.Embedding), seen); err != nil {
			return err
		}
		v := c.Embedding
		if len(v) == 0 {
			v = nil
		}
		if _, err := exec(ctx, tx, `INSERT INTO knowledge (source, title, text, metadata, embedder, dims, embedding, source_key)
			VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7`+s.vecIn+`, $8)`,
			c.Source, c.Title, c.Text, mds[i], c.Embedder, len(v), s.vecArg(v), key(c)); err != nil {
			return err
		}
	}
	return nil
}

// PutKnowledge replaces each document's source (and those it replaces)
// with its chunks, and records the source, in one transaction.
func (s *Store) PutKnowledge(ctx context.Context, docs []nadine.KnowledgeDocument) error {
	if len(docs) == 0 {
		return nil
	}
	mds, err := records.KnowledgeDocuments("postgres", docs, encodeMetadata)
	if err != nil {
		return err
	}
	var seen newIndexes
	err = s.tx(ctx, func(tx pgx.Tx) error {
		seen = seen[:0]
		for i, d := range docs {
			keys := append([]string{d.Source.Key}, d.Replaces...)
			if _, err := exec(ctx, tx, `DELETE FROM knowledge WHERE source_key = ANY($1)`, keys); err != nil {
				return err
			}
			if _, err := exec(ctx, tx, `DELETE FROM knowledge_sources WHERE key = ANY($1)`, keys); err != nil {
				return err
			}
			src := d.Source
			var ingested any
			if !src.Ingested.IsZero() {
				ingested = src.Ingested.UTC()
			}
			if _, err := exec(ctx, tx, `INSERT INTO knowledge_sources (key, name, builtin, hash, ingested) VALUES ($1, $2, $3, $4, $5)`,
				src.Key, src.Name, src.Builtin, src.Hash, ingested); err != nil {
				return err
			}
			if err := s.insertChunks(ctx, tx, d.Chunks, mds[i], func(nadine.KnowledgeChunk) string { return src.Key }, &seen); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		s.remember(seen)
	}
	return s.wrap("put knowledge", err)
}

// KnowledgeSources lists the recorded sources by key, with their chunk
// RemoveKnowledge deletes sources and their chunks.
func (s *Store) RemoveKnowledge(ctx context.Context, keys ...string) (int, error) {
	removed := 0
	err := s.tx(ctx, func(tx pgx.Tx) error {
		if _, err := exec(ctx, tx, `DELETE FROM knowledge WHERE source_key = ANY($1)`, keys); err != nil {
			return err
		}
		tag, err := exec(ctx, tx, `DELETE FROM knowledge_sources WHERE key = ANY($1)`, keys)
		if err != nil {
			return err
		}
		removed = int(tag.RowsAffected())
		return nil
	})
	return removed, s.wrap("remove knowledge", err)
}

// counts and embedders.
func (s *Store) KnowledgeSources(ctx context.Context) ([]nadine.KnowledgeSource, error) {
	rows, err := query(ctx, s.pool, `SELECT src.key, src.name, src.builtin, src.hash, src.ingested,
			count(k.id), coalesce(string_agg(DISTINCT k.embedder, ','), '')
		FROM knowledge_sources src LEFT JOIN knowledge k ON k.source_key = src.key
		GROUP BY src.key, src.name, src.builtin, src.hash, src.ingested ORDER BY src.key COLLATE "C"`)
	if err != nil {
		return nil, s.wrap("knowledge sources", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (nadine.KnowledgeSource, error) {
		var (
			src      nadine.KnowledgeSource
			ingested *time.Time
		)
		err := r.Scan(&src.Key, &src.Name, &src.Builtin, &src.Hash, &ingested, &src.Chunks, &src.Embedder)
		if ingested != nil {
			src.Ingested = *ingested
		}
		return src, err
	})
	return out, s.wrap("knowledge sources", err)
}

// KnowledgeChunks returns one source's chunks, in the order stored.
func (s *Store) KnowledgeChunks(ctx context.Context, key string) ([]nadine.KnowledgeChunk, error) {
	rows, err := query(ctx, s.pool, s.knowledgeColumns()+` FROM knowledge WHERE source_key = $1 ORDER BY id`, key)
	if err != nil {
		return nil, s.wrap("knowledge chunks", err)
	}
	cs, err := pgx.CollectRows(rows, scanChunk)
	return cs, s.wrap("knowledge chunks", err)
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

// SearchKnowledge ranks through the dimension's HNSW index with pgvector
// (approximate on a large base), else every vector of that space in the store.
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

// ClearKnowledge deletes the whole knowledge base and its sources.
func (s *Store) ClearKnowledge(ctx context.Context) error {
	err := s.tx(ctx, func(tx pgx.Tx) error {
		if _, err := exec(ctx, tx, `DELETE FROM knowledge`); err != nil {
			return err
		}
		_, err := exec(ctx, tx, `DELETE FROM knowledge_sources`)
		return err
	})
	return s.wrap("clear knowledge", err)
}
