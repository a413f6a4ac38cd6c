package translate

import (
	"context"
	"fmt"
	"strings"

	"github.com/nadine-robot/nadine"
)

// Ensure makes sure text is in the language want. It detects text's
// language with d; when d is sure the text is in another supported
// language, it translates it with t and returns the translation and true.
// When detection is unsure (too short or ambiguous: "OK", "Alex", "12") or
// finds want, text is returned unchanged with false and no call to t.
//
// When the translation fails, Ensure returns the original text, false and
// the error (wrapped, keeping its code): the caller decides; the runtime
// publishes the original and records the failure in the trace.
func Ensure(ctx context.Context, d nadine.LanguageDetector, t nadine.Translator, text string, want nadine.Language) (string, bool, error) {
	if !want.Valid() {
		return text, false, nadine.Errorf(nadine.EINVALID, "translate: ensure: unsupported language %q", want)
	}
	if strings.TrimSpace(text) == "" {
		return text, false, nil
	}
	got, _, ok := d.Detect(text)
	if !ok || got == want || !got.Valid() {
		return text, false, nil
	}
	out, err := t.Translate(ctx, text, got, want)
	if err != nil {
		return text, false, fmt.Errorf("translate: ensure %s→%s: %w", got, want, err)
	}
	return out, true, nil
}
