package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

// AddKnowledge stores knowledge chunks in one transaction, each under a
// source keyed and named by its Source (recorded when new, without a hash).
func (s *Store) AddKnowledge(ctx context.Context, chunks []nadine.KnowledgeChunk) error {
	if len(chunks) == 0 {
		return nil
	}
	mds, err := records.KnowledgeMetadata(chunks, encodeMetadata)
	if err != nil {
		return fmt.Errorf("sqlite: add knowledge: %w", err)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		for _, c := range chunks {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO knowledge_sources (key, name) VALUES (?, ?)`, c.Source, c.Source); err != nil {
				return err
			}
		}
		return insertChunks(ctx, tx, chunks, mds, func(c nadine.KnowledgeChunk) string { return c.Source })
	})
	s.cache.invalidate(knowledgeKey)
	return s.wrap("add knowledge", err)
}

// insertChunks inserts chunks, each under the source key that key gives.
func insertChunks(ctx context.Context, tx *sql.Tx, chunks []nadine.KnowledgeChunk, mds []string, key func(nadine.KnowledgeChunk) string) error {
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO knowledge
		(source, title, text, metadata, embedder, dims, embedding, source_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i, c := range chunks {
		if _, err := stmt.ExecContext(ctx, c.Source, c.Title, c.Text, mds[i], c.Embedder,
			len(c.Embedding), records.EncodeVector(c.Embedding), key(c)); err != nil {
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
	mds, err := records.KnowledgeDocuments("sqlite", docs, encodeMetadata)
	if err != nil {
		return err
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		for i, d := range docs {
			for _, k := range append([]string{d.Source.Key}, d.Replaces...) {
				if _, err := tx.ExecContext(ctx, `DELETE FROM knowledge WHERE source_key = ?`, k); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `DELETE FROM knowledge_sources WHERE key = ?`, k); err != nil {
					return err
				}
			}
			src := d.Source
			if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_sources (key, name, builtin, hash, ingested_us) VALUES (?, ?, ?, ?, ?)`,
				src.Key, src.Name, src.Builtin, src.Hash, toMicros(src.Ingested)); err != nil {
				return err
			}
			if err := insertChunks(ctx, tx, d.Chunks, mds[i], func(nadine.KnowledgeChunk) string { return src.Key }); err != nil {
				return err
			}
		}
		return nil
	})
	s.cache.invalidate(knowledgeKey)
	return s.wrap("put knowledge", err)
}

// RemoveKnowledge deletes sources and their chunks.
func (s *Store) RemoveKnowledge(ctx context.Context, keys ...string) (int, error) {
	removed := 0
	err := s.write(ctx, func(tx *sql.Tx) error {
		removed = 0
		for _, k := range keys {
			if _, err := tx.ExecContext(ctx, `DELETE FROM knowledge WHERE source_key = ?`, k); err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, `DELETE FROM knowledge_sources WHERE key = ?`, k)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			removed += int(n)
		}
		return nil
	})
	s.cache.invalidate(knowledgeKey)
	return removed, s.wrap("remove knowledge", err)
}

// KnowledgeSources lists the recorded sources by key, with their chunk
// counts and embedders.
func (s *Store) KnowledgeSources(ctx context.Context) ([]nadine.KnowledgeSource, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT s.key, s.name, s.builtin, s.hash, s.ingested_us,
			count(k.id), coalesce(group_concat(DISTINCT k.embedder), '')
		FROM knowledge_sources s LEFT JOIN knowledge k ON k.source_key = s.key
		GROUP BY s.key ORDER BY s.key`)
	if err != nil {
		return nil, s.wrap("knowledge sources", err)
	}
	defer rows.Close()
	var out []nadine.KnowledgeSource
	for rows.Next() {
		var (
			src nadine.KnowledgeSource
			us  int64
		)
		if err := rows.Scan(&src.Key, &src.Name, &src.Builtin, &src.Hash, &us, &src.Chunks, &src.Embedder); err != nil {
			return nil, s.wrap("knowledge sources", err)
		}
		src.Ingested = fromMicros(us)
		out = append(out, src)
	}
	return out, s.wrap("knowledge sources", rows.Err())
}

// KnowledgeChunks returns one source's chunks, in the order stored.
func (s *Store) KnowledgeChunks(ctx context.Context, key string) ([]nadine.KnowledgeChunk, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, source, title, text, metadata, embedder, embedding
		FROM knowledge WHERE source_key = ? ORDER BY id`, key)
	if err != nil {
		return nil, s.wrap("knowledge chunks", err)
	}
	defer rows.Close()
	var out []nadine.KnowledgeChunk
	for rows.Next() {
		c, err := scanChunk(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: knowledge chunks: %w", err)
		}
		out = append(out, c)
	}
	return out, s.wrap("knowledge chunks", rows.Err())
}

// scanChunk reads id, source, title, text, metadata, embedder and embedding.
func scanChunk(rows *sql.Rows) (nadine.KnowledgeChunk, error) {
	var (
		c    nadine.KnowledgeChunk
		md   string
		blob []byte
	)
	if err := rows.Scan(&c.ID, &c.Source, &c.Title, &c.Text, &md, &c.Embedder, &blob); err != nil {
		return c, err
	}
	if md != "" && md != "{}" {
		if err := json.Unmarshal([]byte(md), &c.Metadata); err != nil {
			return c, fmt.Errorf("metadata of chunk %d: %w", c.ID, err)
		}
	}
	v, err := records.DecodeVector(blob, nil)
	if err != nil {
		return c, fmt.Errorf("chunk %d: %w", c.ID, err)
	}
	c.Embedding = v
	return c, nil
}

// SearchKnowledge compares only vectors of embedder and the query's dimension.
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
		return nil, s.wrap("search knowledge", err)
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
		return nil, s.wrap("search knowledge", err)
	}
	defer rows.Close()
	byID := map[int64]nadine.KnowledgeChunk{}
	for rows.Next() {
		c, err := scanChunk(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: search knowledge: %w", err)
		}
		byID[c.ID] = c
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("search knowledge", err)
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
	return n, s.wrap("knowledge count", err)
}

// KnowledgeEmbedders counts knowledge vectors per embedder name.
func (s *Store) KnowledgeEmbedders(ctx context.Context) (map[string]int, error) {
	return s.countByEmbedder(ctx, s.u, "knowledge embedders", `SELECT embedder, count(*) FROM knowledge GROUP BY embedder`)
}

// ClearKnowledge deletes the whole knowledge base and its sources.
func (s *Store) ClearKnowledge(ctx context.Context) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM knowledge`); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM knowledge_sources`)
		return err
	})
	s.cache.invalidate(knowledgeKey)
	return s.wrap("clear knowledge", err)
}

// encodeMetadata returns a map as a JSON object, "{}" when empty.
func encodeMetadata[V any](m map[string]V) (string, error) {
	if len(m) == 0 {
		return "{}", nil
	}
	b, err := json.Marshal(m)
	return string(b), err
}
