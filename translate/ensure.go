package translate

import (
	"context"
	"fmt"
	"strings"

	"github.com/nadine-robot/nadine"
)

// Ensure translates only when the detector is sure of another language ("OK",
// "Alex" stay); on failure it returns the original text and the error.
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
