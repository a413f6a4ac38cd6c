package mqtt

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseTranscriptTime: whatever the time field of a transcript holds
// (speech-to-text engines stamp times in many ways), parsing never panics,
// a transcript with text is still a turn, and a time read is a real one.
func FuzzParseTranscriptTime(f *testing.F) {
	for _, seed := range []string{
		`{"text":"Hi","time":"2025-03-14T15:09:20.5Z"}`,
		`{"text":"Hi","time":"2025-03-14T15:09:20+01:00","id":"a"}`,
		`{"text":"Hi","timestamp":1741964960}`,
		`{"text":"Hi","timestamp":1741964960123}`,
		`{"text":"Hi","timestamp":1741964960.25}`,
		`{"text":"Hi","time":"yesterday"}`,
		`{"text":"Hi","time":null,"timestamp":"2025-03-14 15:09:20"}`,
		`{"text":"Hi","time":-1}`,
		`{"text":"Hi","time":1e300}`,
		`{"text":"Hi","time":{"s":1}}`,
		`{"text":"Hi","time":["2025-03-14T15:09:20Z"]}`,
		`Hello there`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		if !utf8.ValidString(payload) {
			return // the bus drops invalid UTF-8 before parsing
		}
		tr, err := parseTranscript([]byte(payload))
		if err != nil {
			return
		}
		if strings.TrimSpace(tr.Text) == "" {
			t.Fatalf("a turn without text from %q", payload)
		}
		if !tr.Spoken.IsZero() && (tr.Spoken.Year() < 2000 || tr.Spoken.Year() > 2286) {
			t.Fatalf("time %v read from %q", tr.Spoken, payload)
		}
	})
}
