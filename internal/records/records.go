// Package records holds what every nadine.Store does to a record before
// writing it, so that the stores agree: the input checks, a memory's
// metadata keys, a profile update's function and the vector layout. Each
// store's SQL stays its own.
package records

import (
	"errors"
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/nadine-robot/nadine"
)

// Memory is the one validation of a stored memory for both stores: user and
// type checked, Time and the date, time, timestamp and conversation_id keys filled.
func Memory(pkg, op, userID string, m nadine.Memory, now func() time.Time) (nadine.Memory, error) {
	if userID == "" {
		return m, nadine.Errorf(nadine.EINVALID, "%s: %s: empty user id", pkg, op)
	}
	if m.UserID != "" && m.UserID != userID {
		return m, nadine.Errorf(nadine.EINVALID, "%s: %s: memory of user %q given for user %q", pkg, op, m.UserID, userID)
	}
	switch m.Type {
	case nadine.MemoryConversation, nadine.MemoryEpisode, nadine.MemoryFact:
	default:
		return m, nadine.Errorf(nadine.EINVALID, "%s: %s: unknown memory type %q", pkg, op, m.Type)
	}
	m.UserID = userID
	if m.Time.IsZero() {
		m.Time = now()
	}
	md := make(map[string]string, len(m.Metadata)+4)
	maps.Copy(md, m.Metadata)
	setDefault(md, "date", m.Time.Format("2006-01-02"))
	setDefault(md, "time", m.Time.Format("15:04:05"))
	setDefault(md, "timestamp", strconv.FormatInt(m.Time.Unix(), 10))
	if m.ConversationID != "" {
		setDefault(md, "conversation_id", m.ConversationID)
	}
	m.Metadata = md
	return m, nil
}

func setDefault(m map[string]string, k, v string) {
	if _, ok := m[k]; !ok {
		m[k] = v
	}
}

// UpdateProfile forces UserID and LastUpdated; fn's error comes back as a
// *FnError, returned as is once the store's transaction is rolled back.
func UpdateProfile(userID string, cur nadine.Profile, found bool, fn func(nadine.Profile, bool) (nadine.Profile, error),
	now func() time.Time) (nadine.Profile, error) {
	if !found {
		cur = nadine.Profile{UserID: userID}
	}
	p, err := fn(cur, found)
	if err != nil {
		return nadine.Profile{}, &FnError{Err: err}
	}
	p.UserID = userID
	if p.LastUpdated.IsZero() {
		p.LastUpdated = now()
	}
	return p, nil
}

// FnError carries a caller's function's error out of a store's transaction.
type FnError struct{ Err error }

// Error implements error.
func (e *FnError) Error() string { return e.Err.Error() }

// Unwrap returns the function's error.
func (e *FnError) Unwrap() error { return e.Err }

// NeedUser returns an EINVALID error ("pkg: op: empty user id") when
// userID is empty: every store method on personal data takes one.
func NeedUser(pkg, op, userID string) error {
	if userID == "" {
		return nadine.Errorf(nadine.EINVALID, "%s: %s: empty user id", pkg, op)
	}
	return nil
}

// NeedConversation is NeedUser, then EINVALID for an empty convID.
func NeedConversation(pkg, op, userID, convID string) error {
	if err := NeedUser(pkg, op, userID); err != nil {
		return err
	}
	if convID == "" {
		return nadine.Errorf(nadine.EINVALID, "%s: %s: empty conversation id", pkg, op)
	}
	return nil
}

// NeedKey is EINVALID ("pkg: op: empty key") for an empty checkpoint key.
func NeedKey(pkg, op, key string) error {
	if key == "" {
		return nadine.Errorf(nadine.EINVALID, "%s: %s: empty key", pkg, op)
	}
	return nil
}

// NeedName is NeedUser, then EINVALID for an empty name.
func NeedName(pkg, op, userID, name string) error {
	if err := NeedUser(pkg, op, userID); err != nil {
		return err
	}
	if name == "" {
		return nadine.Errorf(nadine.EINVALID, "%s: %s: empty name for user %q", pkg, op, userID)
	}
	return nil
}

// NeedScene is NeedUser, then an EINVALID error when the scene id is empty.
func NeedScene(pkg, op string, sc nadine.Scene) error {
	if err := NeedUser(pkg, op, sc.UserID); err != nil {
		return err
	}
	if sc.SceneID == "" {
		return nadine.Errorf(nadine.EINVALID, "%s: %s: empty scene id for user %q", pkg, op, sc.UserID)
	}
	return nil
}

// Metadata encodes a record's metadata map for the store's column.
type Metadata func(map[string]string) (string, error)

// KnowledgeMetadata encodes each chunk's metadata with encode.
func KnowledgeMetadata(chunks []nadine.KnowledgeChunk, encode Metadata) ([]string, error) {
	mds := make([]string, len(chunks))
	for i, c := range chunks {
		md, err := encode(c.Metadata)
		if err != nil {
			return nil, fmt.Errorf("metadata of %q: %w", c.Title, err)
		}
		mds[i] = md
	}
	return mds, nil
}

// KnowledgeDocuments checks that every document's source has a key and
// encodes the metadata of each document's chunks, for PutKnowledge.
func KnowledgeDocuments(pkg string, docs []nadine.KnowledgeDocument, encode Metadata) ([][]string, error) {
	mds := make([][]string, len(docs))
	for i, d := range docs {
		if d.Source.Key == "" {
			return nil, nadine.Errorf(nadine.EINVALID, "%s: put knowledge: a source without a key", pkg)
		}
		md, err := KnowledgeMetadata(d.Chunks, encode)
		if err != nil {
			return nil, fmt.Errorf("%s: put knowledge: %s: %w", pkg, d.Source.Key, err)
		}
		mds[i] = md
	}
	return mds, nil
}

// FnCause returns the error of a profile update's function that
// UpdateProfile wrapped in a FnError, or nil when err is none.
func FnCause(err error) error {
	var fe *FnError
	if errors.As(err, &fe) {
		return fe.Err
	}
	return nil
}

// Rows checks and encodes each memory with row, for a batch insert.
func Rows[R any](ms []nadine.Memory, row func(nadine.Memory) (R, error)) ([]R, error) {
	rows := make([]R, len(ms))
	for i, m := range ms {
		r, err := row(m)
		if err != nil {
			return nil, err
		}
		rows[i] = r
	}
	return rows, nil
}

// One returns the single result of a batch call made with one input.
func One[T any](xs []T, err error) (T, error) {
	if err != nil {
		var zero T
		return zero, err
	}
	return xs[0], nil
}

// Scanner is what a database's result rows (database/sql's, pgx's) offer.
type Scanner interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// Counts reads rows of (name, count) into a map.
func Counts(rows Scanner) (map[string]int, error) {
	out := map[string]int{}
	for rows.Next() {
		var name string
		var n int
		if err := rows.Scan(&name, &n); err != nil {
			return nil, err
		}
		out[name] = n
	}
	return out, rows.Err()
}
