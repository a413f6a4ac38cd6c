package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

const profileColumns = `SELECT user_name, current_company, current_position, location,
	hobbies, interests, face_image_path, last_updated FROM profiles WHERE user_id = $1`

// readProfile locks the row (FOR UPDATE) when lock is set.
func readProfile(ctx context.Context, q db, userID string, lock bool) (nadine.Profile, error) {
	sql := profileColumns
	if lock {
		sql += ` FOR UPDATE`
	}
	p := nadine.Profile{UserID: userID}
	var updated time.Time
	err := queryRow(ctx, q, sql, userID).Scan(&p.UserName, &p.CurrentCompany, &p.CurrentPosition, &p.Location,
		&p.Hobbies, &p.Interests, &p.FaceImagePath, &updated)
	if errors.Is(err, pgx.ErrNoRows) {
		return nadine.Profile{}, nadine.Errorf(nadine.ENOTFOUND, "postgres: no profile for user %q", userID)
	}
	if err != nil {
		return nadine.Profile{}, err
	}
	if len(p.Hobbies) == 0 {
		p.Hobbies = nil
	}
	if len(p.Interests) == 0 {
		p.Interests = nil
	}
	p.LastUpdated = utc(updated)
	return p, nil
}

// Profile of a user known only by name is ENOTFOUND.
func (s *Store) Profile(ctx context.Context, userID string) (nadine.Profile, error) {
	if err := needUser("profile", userID); err != nil {
		return nadine.Profile{}, err
	}
	p, err := readProfile(ctx, s.pool, userID, false)
	return p, s.wrap("profile", err)
}

// writeProfile upserts p and records its name, in the caller's transaction.
func writeProfile(ctx context.Context, tx pgx.Tx, p nadine.Profile) error {
	hobbies, interests := p.Hobbies, p.Interests
	if hobbies == nil {
		hobbies = []string{}
	}
	if interests == nil {
		interests = []string{}
	}
	_, err := exec(ctx, tx, `INSERT INTO profiles (user_id, user_name, current_company,
		current_position, location, hobbies, interests, face_image_path, last_updated)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (user_id) DO UPDATE SET user_name = excluded.user_name,
		current_company = excluded.current_company, current_position = excluded.current_position,
		location = excluded.location, hobbies = excluded.hobbies, interests = excluded.interests,
		face_image_path = excluded.face_image_path, last_updated = excluded.last_updated`,
		p.UserID, p.UserName, p.CurrentCompany, p.CurrentPosition, p.Location,
		hobbies, interests, p.FaceImagePath, p.LastUpdated)
	if err != nil {
		return err
	}
	return setUserName(ctx, tx, p.UserID, p.UserName)
}

// SaveProfile: of two saves at once the later wins whole (UpdateProfile
// merges); an empty name keeps the recorded one.
func (s *Store) SaveProfile(ctx context.Context, p nadine.Profile) error {
	if err := needUser("save profile", p.UserID); err != nil {
		return err
	}
	if p.LastUpdated.IsZero() {
		p.LastUpdated = s.now()
	}
	err := s.tx(ctx, func(tx pgx.Tx) error { return writeProfile(ctx, tx, p) })
	return s.wrap("save profile", err)
}

// UpdateProfile holds the profile's row lock; a missing row is inserted first
// (ON CONFLICT DO NOTHING) so two first updates also wait for each other.
func (s *Store) UpdateProfile(ctx context.Context, userID string, fn func(nadine.Profile, bool) (nadine.Profile, error)) (nadine.Profile, error) {
	if err := needUser("update profile", userID); err != nil {
		return nadine.Profile{}, err
	}
	var out nadine.Profile
	err := s.tx(ctx, func(tx pgx.Tx) error {
		var inserted bool
		err := queryRow(ctx, tx, `INSERT INTO profiles (user_id, last_updated) VALUES ($1, $2)
			ON CONFLICT (user_id) DO NOTHING RETURNING true`, userID, time.Time{}).Scan(&inserted)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		var cur nadine.Profile
		if !inserted {
			if cur, err = readProfile(ctx, tx, userID, true); err != nil {
				return err
			}
		}
		p, err := records.UpdateProfile(userID, cur, !inserted, fn, s.now)
		if err != nil {
			return err
		}
		if err := writeProfile(ctx, tx, p); err != nil {
			return err
		}
		out = p
		return nil
	})
	if fe := records.FnCause(err); fe != nil {
		return nadine.Profile{}, fe
	}
	if err != nil {
		return nadine.Profile{}, s.wrap("update profile", err)
	}
	return out, nil
}

// setUserName upserts the name map row; an empty name keeps the old one.
func setUserName(ctx context.Context, tx pgx.Tx, userID, name string) error {
	_, err := exec(ctx, tx, `INSERT INTO users (user_id, user_name) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET user_name = excluded.user_name
		WHERE excluded.user_name <> ''`, userID, name)
	return err
}

// SetUserName needs no profile; an empty name is EINVALID.
func (s *Store) SetUserName(ctx context.Context, userID, name string) error {
	if err := records.NeedName("postgres", "set user name", userID, name); err != nil {
		return err
	}
	err := s.tx(ctx, func(tx pgx.Tx) error { return setUserName(ctx, tx, userID, name) })
	return s.wrap("set user name", err)
}

// Users lists every user in the id → name map, ordered by id (byte order).
func (s *Store) Users(ctx context.Context) ([]nadine.UserRef, error) {
	rows, err := query(ctx, s.pool, `SELECT user_id, user_name FROM users ORDER BY user_id COLLATE "C"`)
	if err != nil {
		return nil, s.wrap("users", err)
	}
	us, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (nadine.UserRef, error) {
		var u nadine.UserRef
		err := r.Scan(&u.ID, &u.Name)
		return u, err
	})
	return us, s.wrap("users", err)
}

// UserIDs lists once each, in order, every user id personal data is stored under.
func (s *Store) UserIDs(ctx context.Context) ([]string, error) {
	rows, err := query(ctx, s.pool, `SELECT user_id FROM (SELECT user_id FROM users UNION SELECT user_id FROM profiles
		UNION SELECT user_id FROM conversations UNION SELECT user_id FROM memories
		UNION SELECT user_id FROM scenes) ids ORDER BY user_id COLLATE "C"`)
	if err != nil {
		return nil, s.wrap("user ids", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return ids, s.wrap("user ids", err)
}

// ForgetUser's rows are gone for every query at once, but stay on disk until
// VACUUM and the WAL's recycling: see the README's PostgreSQL section.
func (s *Store) ForgetUser(ctx context.Context, userID string) error {
	if err := needUser("forget user", userID); err != nil {
		return err
	}
	err := s.tx(ctx, func(tx pgx.Tx) error {
		for _, q := range []string{
			`DELETE FROM profiles WHERE user_id = $1`,
			`DELETE FROM users WHERE user_id = $1`,
			`DELETE FROM conversations WHERE user_id = $1`, // messages cascade
			`DELETE FROM memories WHERE user_id = $1`,
			`DELETE FROM scenes WHERE user_id = $1`,
		} {
			if _, err := exec(ctx, tx, q, userID); err != nil {
				return err
			}
		}
		_, err := exec(ctx, tx, `DELETE FROM checkpoints WHERE starts_with(key, $1)`, userID+"/")
		return err
	})
	if err == nil {
		s.log.Info("postgres: forgot a user") // who is not logged: erased means unrecoverable
	}
	return s.wrap("forget user", err)
}
