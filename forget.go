package nadine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// PersonStore is what finding and forgetting a person needs of a store.
// Every Store implements it.
type PersonStore interface {
	// Users lists the id → name map.
	Users(ctx context.Context) ([]UserRef, error)
	// UserIDs lists every id personal data is stored under.
	UserIDs(ctx context.Context) ([]string, error)
	// ForgetUser erases everything the store keeps about one id.
	ForgetUser(ctx context.Context, userID string) error
}

// UserEraser erases what one holder keeps about a person besides the store:
// perception's scene folders, a durable inbox, a session in memory.
type UserEraser interface {
	EraseUser(ctx context.Context, userID string) error
}

// UserEraserFunc is a function that is a UserEraser.
type UserEraserFunc func(ctx context.Context, userID string) error

// EraseUser calls f.
func (f UserEraserFunc) EraseUser(ctx context.Context, userID string) error { return f(ctx, userID) }

// People lists every person the store knows by id, those known only from their
// data (a face id nobody named) named after their id; never the unknown user.
func People(ctx context.Context, st PersonStore) ([]UserRef, error) {
	users, err := st.Users(ctx)
	if err != nil {
		return nil, err
	}
	ids, err := st.UserIDs(ctx)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(users))
	out := make([]UserRef, 0, len(users)+len(ids))
	for _, u := range users {
		if !seen[u.ID] {
			seen[u.ID] = true
			out = append(out, u)
		}
	}
	for _, id := range ids {
		if !seen[id] && id != UnknownUser {
			seen[id] = true
			out = append(out, UserRef{ID: id, Name: id})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// ResolvePerson finds the one person who names, by id exactly, else by
// name or id in any case: ENOTFOUND for nobody, EINVALID for several.
func ResolvePerson(ctx context.Context, st PersonStore, who string) (UserRef, error) {
	who = strings.TrimSpace(who)
	if who == "" {
		return UserRef{}, Errorf(EINVALID, "no user given")
	}
	people, err := People(ctx, st)
	if err != nil {
		return UserRef{}, fmt.Errorf("resolve user: %w", err)
	}
	for _, p := range people {
		if p.ID == who {
			return p, nil
		}
	}
	if who == UnknownUser {
		// What older versions kept of strangers can be erased too.
		if ids, err := st.UserIDs(ctx); err == nil && slices.Contains(ids, who) {
			return UserRef{ID: who}, nil
		}
	}
	var found []UserRef
	for _, p := range people {
		if strings.EqualFold(p.Name, who) || strings.EqualFold(p.ID, who) {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 0:
		return UserRef{}, Errorf(ENOTFOUND, "no user %q (see nadine memory users)", who)
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, p := range found {
		ids[i] = p.ID
	}
	return UserRef{}, Errorf(EINVALID, "%d users match %q (%s): give the user id", len(found), who, strings.Join(ids, ", "))
}

// Forgetter is the one way a person is erased (CLI, API, monitor): the
// holders in Also first, then the store; failures are returned joined.
type Forgetter struct {
	Store PersonStore
	// Also are the other holders of personal data.
	Also []UserEraser
}

// Forget resolves who and erases that person everywhere; it returns who
// was erased.
func (f *Forgetter) Forget(ctx context.Context, who string) (UserRef, error) {
	if f == nil || f.Store == nil {
		return UserRef{}, Errorf(EINVALID, "forget: no store")
	}
	u, err := ResolvePerson(ctx, f.Store, who)
	if err != nil {
		return UserRef{}, err
	}
	return u, f.ForgetID(ctx, u.ID)
}

// ForgetID erases one user id everywhere, without resolving it. Erasing an
// id nothing is stored under is not an error.
func (f *Forgetter) ForgetID(ctx context.Context, userID string) error {
	if f == nil || f.Store == nil {
		return Errorf(EINVALID, "forget: no store")
	}
	if strings.TrimSpace(userID) == "" {
		return Errorf(EINVALID, "forget: empty user id")
	}
	var errs []error
	for _, e := range f.Also {
		if err := e.EraseUser(ctx, userID); err != nil {
			errs = append(errs, err)
		}
	}
	if err := f.Store.ForgetUser(ctx, userID); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("forget %s: %w", userID, err)
	}
	return nil
}
