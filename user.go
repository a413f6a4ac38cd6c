package nadine

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// NewUserID makes a readable id from a name with a random suffix
// ("alex-3f9a1c"), so two people of one name never share an id.
func NewUserID(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if b.Len() >= 32 {
			break
		}
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	slug := b.String()
	if slug == "" {
		slug = "user"
	}
	var x [3]byte
	_, _ = rand.Read(x[:]) // crypto/rand.Read does not fail
	return slug + "-" + hex.EncodeToString(x[:])
}

// FindUser returns the user whose id is nameOrID, else the first whose
// name equals it case-insensitively.
func FindUser(users []UserRef, nameOrID string) (UserRef, bool) {
	nameOrID = strings.TrimSpace(nameOrID)
	for _, u := range users {
		if u.ID == nameOrID {
			return u, true
		}
	}
	for _, u := range users {
		if strings.EqualFold(u.Name, nameOrID) {
			return u, true
		}
	}
	return UserRef{}, false
}
