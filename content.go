package nadine

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Content is conversation text as a log attribute value: it prints as its
// length unless redact.ContentReplacer shows it (no slog.LogValuer, on purpose).
type Content string

// String returns the length of the text, never the text.
func (c Content) String() string {
	return "[" + strconv.Itoa(utf8.RuneCountInString(string(c))) + " chars]"
}

// MarshalJSON writes String, for JSON handlers.
func (c Content) MarshalJSON() ([]byte, error) { return json.Marshal(c.String()) }

// PersonID is a person's user id as a log attribute value: an id names
// someone, so it prints as "[person]" unless redact.ContentReplacer shows it.
type PersonID string

// String returns "[person]", "unknown" or "", never the id.
func (p PersonID) String() string {
	switch p {
	case "", UnknownUser:
		return string(p)
	}
	return "[person]"
}

// MarshalJSON writes String, for JSON handlers.
func (p PersonID) MarshalJSON() ([]byte, error) { return json.Marshal(p.String()) }
