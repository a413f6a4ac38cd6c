package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

// UpsertScenes replaces a scene with the same user and scene id; empty ids are EINVALID.
func (s *Store) UpsertScenes(ctx context.Context, scenes []nadine.Scene) error {
	probs := make([]string, len(scenes))
	for i, sc := range scenes {
		if err := records.NeedScene("postgres", "upsert scenes", sc); err != nil {
			return err
		}
		p, err := encodeMetadata(sc.EmotionProbs)
		if err != nil {
			return fmt.Errorf("postgres: upsert scenes: emotion probabilities of %q: %w", sc.SceneID, err)
		}
		probs[i] = p
	}
	if len(scenes) == 0 {
		return nil
	}
	err := s.tx(ctx, func(tx pgx.Tx) error {
		for i, sc := range scenes {
			if _, err := exec(ctx, tx, `INSERT INTO scenes (user_id, scene_id, time, image_path,
				memorability, emotion_probs, description, image_embedding, description_embedding,
				description_embedder) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8::real[], $9::real[], $10)
				ON CONFLICT (user_id, scene_id) DO UPDATE SET time = excluded.time,
				image_path = excluded.image_path, memorability = excluded.memorability,
				emotion_probs = excluded.emotion_probs, description = excluded.description,
				image_embedding = excluded.image_embedding,
				description_embedding = excluded.description_embedding,
				description_embedder = excluded.description_embedder`,
				sc.UserID, sc.SceneID, sc.Time, sc.ImagePath, sc.Memorability, probs[i], sc.Description,
				nilIfEmpty(sc.ImageEmbedding), nilIfEmpty(sc.DescriptionEmbedding), sc.DescriptionEmbedder); err != nil {
				return err
			}
		}
		return nil
	})
	return s.wrap("upsert scenes", err)
}

func nilIfEmpty(v []float32) []float32 {
	if len(v) == 0 {
		return nil
	}
	return v
}

// Scenes lists a user's scenes, newest first (by Time, then scene id).
func (s *Store) Scenes(ctx context.Context, userID string) ([]nadine.Scene, error) {
	if err := needUser("scenes", userID); err != nil {
		return nil, err
	}
	rows, err := query(ctx, s.pool, `SELECT scene_id, time, image_path, memorability, emotion_probs,
		description, image_embedding, description_embedding, description_embedder
		FROM scenes WHERE user_id = $1 ORDER BY time DESC, scene_id COLLATE "C"`, userID)
	if err != nil {
		return nil, s.wrap("scenes", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (nadine.Scene, error) {
		sc := nadine.Scene{UserID: userID}
		err := r.Scan(&sc.SceneID, &sc.Time, &sc.ImagePath, &sc.Memorability, &sc.EmotionProbs,
			&sc.Description, &sc.ImageEmbedding, &sc.DescriptionEmbedding, &sc.DescriptionEmbedder)
		sc.Time = utc(sc.Time)
		if len(sc.EmotionProbs) == 0 {
			sc.EmotionProbs = nil
		}
		return sc, err
	})
	if len(out) == 0 {
		out = nil
	}
	return out, s.wrap("scenes", err)
}
