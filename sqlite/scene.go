package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

// UpsertScenes replaces a scene with the same user and scene id; empty ids are EINVALID.
func (s *Store) UpsertScenes(ctx context.Context, scenes []nadine.Scene) error {
	probs := make([]string, len(scenes))
	for i, sc := range scenes {
		if err := records.NeedScene("sqlite", "upsert scenes", sc); err != nil {
			return err
		}
		p, err := encodeMetadata(sc.EmotionProbs)
		if err != nil {
			return fmt.Errorf("sqlite: upsert scenes: emotion probabilities of %q: %w", sc.SceneID, err)
		}
		probs[i] = p
	}
	if len(scenes) == 0 {
		return nil
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO scenes (user_id, scene_id, time_us, image_path,
			memorability, emotion_probs, description, image_embedding, description_embedding,
			description_embedder) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (user_id, scene_id) DO UPDATE SET time_us = excluded.time_us,
			image_path = excluded.image_path, memorability = excluded.memorability,
			emotion_probs = excluded.emotion_probs, description = excluded.description,
			image_embedding = excluded.image_embedding,
			description_embedding = excluded.description_embedding,
			description_embedder = excluded.description_embedder`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for i, sc := range scenes {
			if _, err := stmt.ExecContext(ctx, sc.UserID, sc.SceneID, toMicros(sc.Time), sc.ImagePath,
				sc.Memorability, probs[i], sc.Description, records.EncodeVector(sc.ImageEmbedding),
				records.EncodeVector(sc.DescriptionEmbedding), sc.DescriptionEmbedder); err != nil {
				return err
			}
		}
		return nil
	})
	return s.wrap("upsert scenes", err)
}

// Scenes lists a user's scenes, newest first (by Time, then scene id).
func (s *Store) Scenes(ctx context.Context, userID string) ([]nadine.Scene, error) {
	if err := needUser("scenes", userID); err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT scene_id, time_us, image_path, memorability,
		emotion_probs, description, image_embedding, description_embedding, description_embedder
		FROM scenes WHERE user_id = ? ORDER BY time_us DESC, scene_id`, userID)
	if err != nil {
		return nil, s.wrap("scenes", err)
	}
	defer rows.Close()
	var out []nadine.Scene
	for rows.Next() {
		var (
			sc             = nadine.Scene{UserID: userID}
			timeUS         int64
			probs          string
			image, descVec []byte
		)
		if err := rows.Scan(&sc.SceneID, &timeUS, &sc.ImagePath, &sc.Memorability, &probs,
			&sc.Description, &image, &descVec, &sc.DescriptionEmbedder); err != nil {
			return nil, s.wrap("scenes", err)
		}
		sc.Time = fromMicros(timeUS)
		if probs != "" && probs != "{}" {
			if err := json.Unmarshal([]byte(probs), &sc.EmotionProbs); err != nil {
				return nil, fmt.Errorf("sqlite: scenes: emotion probabilities of %q: %w", sc.SceneID, err)
			}
		}
		if len(image) > 0 {
			if sc.ImageEmbedding, err = records.DecodeVector(image, nil); err != nil {
				return nil, fmt.Errorf("sqlite: scenes: image vector of %q: %w", sc.SceneID, err)
			}
		}
		if len(descVec) > 0 {
			if sc.DescriptionEmbedding, err = records.DecodeVector(descVec, nil); err != nil {
				return nil, fmt.Errorf("sqlite: scenes: description vector of %q: %w", sc.SceneID, err)
			}
		}
		out = append(out, sc)
	}
	return out, s.wrap("scenes", rows.Err())
}
