package web

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
)

// Bounds on what a request may name.
const (
	maxNameRunes    = 80
	maxIDBytes      = 128
	maxEmotionRunes = 32
)

// resolveUser finds who a turn is from by id or name, creating a profile for
// a new name so Nadine remembers them; ok is false with neither.
func (s *Server) resolveUser(ctx context.Context, id, name string) (u nadine.UserRef, ok bool, err error) {
	id, name = strings.TrimSpace(id), strings.TrimSpace(name)
	if err := checkName(name); err != nil {
		return u, false, err
	}
	if id != "" {
		if err := checkID(id); err != nil {
			return u, false, err
		}
		if name == "" && id != nadine.UnknownUser {
			users, err := s.opts.Store.Users(ctx)
			if err != nil {
				return u, false, fmt.Errorf("web: list users: %w", err)
			}
			for _, x := range users {
				if x.ID == id {
					name = x.Name
				}
			}
		}
		return nadine.UserRef{ID: id, Name: name}, true, nil
	}
	if name == "" {
		return u, false, nil
	}
	s.userMu.Lock()
	defer s.userMu.Unlock()
	users, err := s.opts.Store.Users(ctx)
	if err != nil {
		return u, false, fmt.Errorf("web: list users: %w", err)
	}
	if x, found := nadine.FindUser(users, name); found {
		return x, true, nil
	}
	u = nadine.UserRef{ID: s.opts.NewUserID(name), Name: name}
	if err := nadine.CreateProfile(ctx, s.opts.Store, u, s.opts.Now()); err != nil {
		return nadine.UserRef{}, false, fmt.Errorf("web: create user %q: %w", name, err)
	}
	s.log.Info("web: new user", "user", nadine.PersonID(u.ID))
	return u, true, nil
}

func checkName(name string) error {
	if utf8.RuneCountInString(name) > maxNameRunes {
		return invalid("user_name is too long (at most %d characters)", maxNameRunes)
	}
	if strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return invalid("user_name holds control characters")
	}
	return nil
}

func checkID(id string) error {
	if id == "" {
		return invalid("empty user id")
	}
	if len(id) > maxIDBytes {
		return invalid("user id is too long (at most %d bytes)", maxIDBytes)
	}
	if !utf8.ValidString(id) || strings.IndexFunc(id, unicode.IsControl) >= 0 {
		return invalid("user id holds control characters or invalid UTF-8")
	}
	return nil
}

// checkEmotion accepts a facial emotion label: a word or two, letters only
// ("happy", "neutral"); it returns the label lowercased.
func checkEmotion(e string) (string, error) {
	e = strings.ToLower(strings.TrimSpace(e))
	if utf8.RuneCountInString(e) > maxEmotionRunes {
		return "", invalid("user_emotion is too long (at most %d characters)", maxEmotionRunes)
	}
	for _, r := range e {
		if !unicode.IsLetter(r) && r != ' ' && r != '-' && r != '_' {
			return "", invalid("user_emotion %s: use letters only, such as \"happy\" or \"neutral\"", quote(e))
		}
	}
	return e, nil
}
