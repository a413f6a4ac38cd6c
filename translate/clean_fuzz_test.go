package translate_test

import (
	"testing"
	"unicode/utf8"

	"github.com/nadine-robot/nadine/translate"
)

// FuzzClean reads translations as models write them: nothing panics, the
// result is valid UTF-8 when the answer is, and a clean translation is
// left alone.
func FuzzClean(f *testing.F) {
	for _, s := range []struct{ answer, source string }{
		{"Hello.", "Bonjour."},
		{"« Bonjour. »", "Hello."},
		{"Here is the English translation:\n\n\"Hello.\"", "Bonjour."},
		{"<think>The user wants English.</think>\nHello.", "Bonjour."},
		{`{"translation": "Hello."}`, "Bonjour."},
		{"```json\n{\"translated_text\": \"Hallo.\"}\n```", "Hello."},
		{"Translation: Hello.", "Bonjour."},
		{`"Yes" and "no".`, "« Oui » et « non »."},
	} {
		f.Add(s.answer, s.source)
	}
	f.Fuzz(func(t *testing.T, answer, source string) {
		out := translate.Clean(answer, source)
		if utf8.ValidString(answer) && !utf8.ValidString(out) {
			t.Fatalf("Clean(%q) = %q: invalid UTF-8", answer, out)
		}
		if again := translate.Clean(out, source); out != "" && again != out && translate.Clean(again, source) != again {
			t.Fatalf("Clean does not settle: %q → %q → %q", answer, out, again)
		}
	})
}
