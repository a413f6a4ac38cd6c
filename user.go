package nadine

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// NewUserID makes a readable id from a name with a random suffix
// ("alex-3f9a1c"), so two people of one name never share an id. Latin
// letters lose their accents ("Léa" is "lea"); other scripts leave "user".
func NewUserID(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFD.String(strings.ToLower(name)) {
		if b.Len() >= 32 {
			break
		}
		if unicode.Is(unicode.Mn, r) {
			continue // the accent of the letter before
		}
		s, spelled := latinLetters[r]
		if !spelled && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			s, spelled = string(r), true
		}
		if spelled {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteString(s)
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

// latinLetters spells the Latin letters that do not decompose into a
// letter and an accent.
var latinLetters = map[rune]string{'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'ł': "l", 'đ': "d", 'ð': "d", 'þ': "th", 'ı': "i"}

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
