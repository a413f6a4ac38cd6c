package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

// Profile of a user known only by name is ENOTFOUND.
func (s *Store) Profile(ctx context.Context, userID string) (nadine.Profile, error) {
	if err := needUser("profile", userID); err != nil {
		return nadine.Profile{}, err
	}
	p, err := readProfile(ctx, s.r, userID)
	return p, s.wrap("profile", err)
}

// readProfile reads a user's profile through q, or returns ENOTFOUND.
func readProfile(ctx context.Context, q querier, userID string) (nadine.Profile, error) {
	var (
		p                  = nadine.Profile{UserID: userID}
		hobbies, interests string
		updated            int64
	)
	err := q.QueryRowContext(ctx, `SELECT user_name, current_company, current_position, location,
		hobbies, interests, face_image_path, last_updated_us
		FROM profiles WHERE user_id = ?`, userID).
		Scan(&p.UserName, &p.CurrentCompany, &p.CurrentPosition, &p.Location,
			&hobbies, &interests, &p.FaceImagePath, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nadine.Profile{}, nadine.Errorf(nadine.ENOTFOUND, "sqlite: no profile for user %q", userID)
	}
	if err != nil {
		return nadine.Profile{}, err
	}
	if p.Hobbies, err = decodeStrings(hobbies); err != nil {
		return nadine.Profile{}, fmt.Errorf("sqlite: profile %q: hobbies: %w", userID, err)
	}
	if p.Interests, err = decodeStrings(interests); err != nil {
		return nadine.Profile{}, fmt.Errorf("sqlite: profile %q: interests: %w", userID, err)
	}
	p.LastUpdated = fromMicros(updated)
	return p, nil
}

// SaveProfile with an empty name keeps the name already recorded.
func (s *Store) SaveProfile(ctx context.Context, p nadine.Profile) error {
	if err := needUser("save profile", p.UserID); err != nil {
		return err
	}
	if p.LastUpdated.IsZero() {
		p.LastUpdated = s.now()
	}
	err := s.write(ctx, func(tx *sql.Tx) error { return writeProfile(ctx, tx, p) })
	return s.wrap("save profile", err)
}

// writeProfile upserts p and records its name, in the caller's transaction.
func writeProfile(ctx context.Context, tx *sql.Tx, p nadine.Profile) error {
	hobbies, err := encodeStrings(p.Hobbies)
	if err != nil {
		return err
	}
	interests, err := encodeStrings(p.Interests)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO profiles (user_id, user_name, current_company,
		current_position, location, hobbies, interests, face_image_path, last_updated_us)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET user_name = excluded.user_name,
		current_company = excluded.current_company, current_position = excluded.current_position,
		location = excluded.location, hobbies = excluded.hobbies, interests = excluded.interests,
		face_image_path = excluded.face_image_path, last_updated_us = excluded.last_updated_us`,
		p.UserID, p.UserName, p.CurrentCompany, p.CurrentPosition, p.Location,
		hobbies, interests, p.FaceImagePath, toMicros(p.LastUpdated))
	if err != nil {
		return err
	}
	return setUserName(ctx, tx, p.UserID, p.UserName)
}

// setUserName upserts the name map row; an empty name keeps the old one.
func setUserName(ctx context.Context, tx *sql.Tx, userID, name string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO users (user_id, user_name) VALUES (?, ?)
		ON CONFLICT (user_id) DO UPDATE SET user_name = excluded.user_name
		WHERE excluded.user_name <> ''`, userID, name)
	return err
}

// SetUserName needs no profile; an empty name is EINVALID.
func (s *Store) SetUserName(ctx context.Context, userID, name string) error {
	if err := records.NeedName("sqlite", "set user name", userID, name); err != nil {
		return err
	}
	err := s.write(ctx, func(tx *sql.Tx) error { return setUserName(ctx, tx, userID, name) })
	return s.wrap("set user name", err)
}

// Users lists every user in the id → name map, ordered by id.
func (s *Store) Users(ctx context.Context) ([]nadine.UserRef, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT user_id, user_name FROM users ORDER BY user_id`)
	if err != nil {
		return nil, s.wrap("users", err)
	}
	defer rows.Close()
	var us []nadine.UserRef
	for rows.Next() {
		var u nadine.UserRef
		if err := rows.Scan(&u.ID, &u.Name); err != nil {
			return nil, s.wrap("users", err)
		}
		us = append(us, u)
	}
	return us, s.wrap("users", rows.Err())
}

func encodeStrings(v []string) (string, error) {
	if v == nil {
		v = []string{}
	}
	b, err := json.Marshal(v)
	return string(b), err
}

func decodeStrings(s string) ([]string, error) {
	if s == "" || s == "[]" || s == "null" {
		return nil, nil
	}
	var v []string
	err := json.Unmarshal([]byte(s), &v)
	return v, err
}
