package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nadine-robot/nadine"
)

// AddKnowledge stores knowledge chunks in one transaction.
func (s *Store) AddKnowledge(ctx context.Context, chunks []nadine.KnowledgeChunk) error {
	if len(chunks) == 0 {
		return nil
	}
	mds := make([]string, len(chunks))
	for i, c := range chunks {
		md := "{}"
		if len(c.Metadata) > 0 {
			b, err := json.Marshal(c.Metadata)
			if err != nil {
				return fmt.Errorf("sqlite: add knowledge: metadata of %q: %w", c.Title, err)
			}
			md = string(b)
		}
		mds[i] = md
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO knowledge
			(source, title, text, metadata, embedder, dims, embedding) VALUES (?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for i, c := range chunks {
			if _, err := stmt.ExecContext(ctx, c.Source, c.Title, c.Text, mds[i], c.Embedder,
				len(c.Embedding), encodeVector(c.Embedding)); err != nil {
				return err
			}
		}
		return nil
	})
	s.cache.invalidate(knowledgeKey)
	return wrap("add knowledge", err)
}

// SearchKnowledge returns the k knowledge chunks most similar to embedding,
// best first, comparing only vectors of embedder with the same dimension.
// k <= 0 returns nothing; an empty vector is EINVALID.
func (s *Store) SearchKnowledge(ctx context.Context, embedding []float32, embedder string, k int) ([]nadine.ScoredChunk, error) {
	if len(embedding) == 0 {
		return nil, nadine.Errorf(nadine.EINVALID, "sqlite: search knowledge: empty query vector")
	}
	if k <= 0 {
		return nil, nil
	}
	set, err := s.cache.get(ctx, knowledgeKey, func() (*vecSet, error) {
		rows, err := s.r.QueryContext(ctx, `SELECT id, embedder, embedding FROM knowledge WHERE dims > 0`)
		if err != nil {
			return nil, err
		}
		return scanVectors(rows)
	})
	if err != nil {
		return nil, wrap("search knowledge", err)
	}
	best := set.topK(embedding, embedder, k, allKinds)
	if len(best) == 0 {
		return nil, nil
	}
	args := make([]any, len(best))
	for i, b := range best {
		args[i] = b.id
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, source, title, text, metadata, embedder, embedding
		FROM knowledge WHERE id IN (?`+strings.Repeat(", ?", len(best)-1)+`)`, args...)
	if err != nil {
		return nil, wrap("search knowledge", err)
	}
	defer rows.Close()
	byID := map[int64]nadine.KnowledgeChunk{}
	for rows.Next() {
		var (
			c    nadine.KnowledgeChunk
			md   string
			blob []byte
		)
		if err := rows.Scan(&c.ID, &c.Source, &c.Title, &c.Text, &md, &c.Embedder, &blob); err != nil {
			return nil, wrap("search knowledge", err)
		}
		if md != "" && md != "{}" {
			if err := json.Unmarshal([]byte(md), &c.Metadata); err != nil {
				return nil, fmt.Errorf("sqlite: search knowledge: metadata of chunk %d: %w", c.ID, err)
			}
		}
		if c.Embedding, err = decodeVector(blob, nil); err != nil {
			return nil, fmt.Errorf("sqlite: search knowledge: chunk %d: %w", c.ID, err)
		}
		byID[c.ID] = c
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("search knowledge", err)
	}
	out := make([]nadine.ScoredChunk, 0, len(best))
	for _, b := range best {
		if c, ok := byID[b.id]; ok {
			out = append(out, nadine.ScoredChunk{KnowledgeChunk: c, Score: b.score})
		}
	}
	return out, nil
}

// KnowledgeCount returns how many knowledge chunks are stored.
func (s *Store) KnowledgeCount(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM knowledge`).Scan(&n)
	return n, wrap("knowledge count", err)
}

// KnowledgeEmbedders counts knowledge vectors per embedder name.
func (s *Store) KnowledgeEmbedders(ctx context.Context) (map[string]int, error) {
	return s.countByEmbedder(ctx, "knowledge embedders", `SELECT embedder, count(*) FROM knowledge GROUP BY embedder`)
}

// ClearKnowledge deletes the whole knowledge base.
func (s *Store) ClearKnowledge(ctx context.Context) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM knowledge`)
		return err
	})
	s.cache.invalidate(knowledgeKey)
	return wrap("clear knowledge", err)
}
