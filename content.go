package nadine

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Content is conversation text as a log attribute value: what a person
// said, Nadine's reply, a model's output, a song's topic, a place asked
// about. Logs carry no conversation by default, so a Content prints as its
// length only ("[23 chars]") through any handler; the process logger shows
// the text itself when the operator asked for it (ContentReplacer). It is
// deliberately no slog.LogValuer, so that ReplaceAttr sees it as such.
//
//	log.Info("turn", "user", id, "input", nadine.Content(text))
type Content string

// String returns the length of the text, never the text.
func (c Content) String() string {
	return "[" + strconv.Itoa(utf8.RuneCountInString(string(c))) + " chars]"
}

// MarshalJSON writes String, for JSON handlers.
func (c Content) MarshalJSON() ([]byte, error) { return json.Marshal(c.String()) }
