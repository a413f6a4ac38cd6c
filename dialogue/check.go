package dialogue

import (
	"context"
	"log/slog"
	"regexp"
	"strings"
	"unicode"

	"github.com/nadine-robot/nadine"
)

// A turn's events go one way: from the engine, through the turn's Output
// (output.go), to the session (apply) and to the caller (emit: the robot
// runtime, which publishes them and tells the monitor). The Output
// depends on what it is given, never on the Manager: the session language
// at the turn's start, the function that applies an event to the session
// (the manager's applyEvent, which only writes the session and calls
// nothing), and the sentence check below. Nothing on that path calls back
// into the manager or asks the runtime: the runtime reads the session at
// start and after each turn, never from inside emit.

// sessionApply applies the change one event makes to the session, as the
// event goes out (the manager's applyEvent); it calls nothing back.
type sessionApply func(nadine.Event)

// sentenceCheck returns the stage every reply sentence passes before it is
// spoken: the speech gate, then the language check.
func (m *Manager) sentenceCheck() SentenceCheck {
	gate := &speechGate{}
	return func(ctx context.Context, text string, stated, want nadine.Language, authored bool) (string, nadine.Language, bool) {
		return m.checkSentence(ctx, gate, text, stated, want, authored)
	}
}

// AuthoredEngine speaks only the project's own texts: they skip the checks
// for talk about the answer and for a model's assistant-isms, so the last
// fallback is never silenced.
type AuthoredEngine interface{ Authored() bool }

// checkSentence checks one sentence of the turn whose speech gate is gate.
func (m *Manager) checkSentence(ctx context.Context, gate *speechGate, text string, stated, want nadine.Language, authored bool) (string, nadine.Language, bool) {
	tr := nadine.TraceFrom(ctx)
	raw := text
	if g := m.guard.withoutGlosses(text, want); g != text && !authored {
		tr.Notef("an aside in another language than %s was not spoken (a gloss of the reply)", want.Name())
		if raw = g; raw == "" {
			return "", stated.Or(want), true
		}
	}
	clean, err := gate.sentence(tr, raw, stated.Or(want), authored)
	if err != nil {
		tr.Notef("a sentence was not spoken: %v", err)
	}
	changed := clean != strings.TrimSpace(text)
	if strings.TrimSpace(clean) == "" {
		return "", stated.Or(want), changed
	}
	// Checked against the session language (where this turn switched it,
	// the new one), and tagged with the language it is in. A translation
	// is a model's answer too, so it passes the gate as well.
	said, lang, translated := m.guard.ensure(ctx, clean, stated, want, func(out string, lang nadine.Language) (string, error) {
		return gate.sentence(tr, out, lang, false)
	})
	return said, lang, changed || translated
}

// languageGuard checks a sentence's language before it is spoken (the
// ReAct dialogue manager's ensure_language); it holds nothing of the session.
type languageGuard struct {
	detector   nadine.LanguageDetector
	translator nadine.Translator
	log        *slog.Logger
}

// ensure returns the sentence to speak and its language, translated or tagged
// so that text-to-speech never reads it with the wrong voice. check decides
// what of a translation may be spoken; a translation it refuses ("{}", the
// translator's prompt said back) is treated as a failed one: the sentence is
// spoken as it was, tagged with its own language.
func (g languageGuard) ensure(ctx context.Context, text string, stated, want nadine.Language, check func(string, nadine.Language) (string, error)) (string, nadine.Language, bool) {
	if g.detector == nil {
		return text, stated.Or(want), false
	}
	got, _, ok := g.detector.Detect(text)
	if !ok || !got.Valid() {
		return text, stated.Or(want), false
	}
	if got == want {
		return text, want, false
	}
	tr := nadine.TraceFrom(ctx)
	if g.translator == nil {
		tr.Notef("a sentence in %s was spoken as %s (no translator)", got.Name(), got.Name())
		return text, got, false
	}
	out, err := g.translator.Translate(ctx, text, got, want)
	if err == nil && strings.TrimSpace(out) != "" && check != nil {
		var checked string
		if checked, err = check(out, want); err == nil && strings.TrimSpace(checked) == "" {
			err = nadine.Errorf(nadine.EBADOUTPUT, "dialogue: the translation %q holds nothing to say", out)
		}
		out = checked
	}
	if err != nil || strings.TrimSpace(out) == "" {
		if err == nil {
			err = nadine.Errorf(nadine.EBADOUTPUT, "dialogue: empty translation")
		}
		tr.Fail("translate", err)
		g.log.Warn("sentence spoken untranslated, tagged with its own language", "language", got, "want", want, "err", err)
		return text, got, false
	}
	tr.Notef("sentence translated to %s before speaking: %q → %q", want.Name(), text, out)
	return out, want, true
}

// glossRE is an aside in parentheses of either width.
var glossRE = regexp.MustCompile(`\s*[(（]([^()（）]{1,300})[)）]`)

// glossMin is the fewest words (ideographs count half) of an aside judged
// by its language: a name or a term in parentheses stays.
const glossMin = 4

// withoutGlosses removes the asides in parentheses written in another
// language than want: a model glossing its own reply ("… les robots sociaux
// (MIRALab is the lab where social robots are studied)") makes the visitor
// hear it twice, once in a language that is not theirs.
func (g languageGuard) withoutGlosses(text string, want nadine.Language) string {
	if g.detector == nil || !want.Valid() || !strings.ContainsAny(text, "(（") {
		return text
	}
	out := glossRE.ReplaceAllStringFunc(text, func(m string) string {
		inner := glossRE.FindStringSubmatch(m)[1]
		if glossWords(inner) < glossMin {
			return m
		}
		if l, _, ok := g.detector.Detect(inner); ok && l.Valid() && l != want {
			return ""
		}
		return m
	})
	if out == text {
		return text
	}
	return strings.TrimSpace(out)
}

// glossWords counts an aside's words, two ideographs as one.
func glossWords(s string) int {
	han := 0
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			han++
		}
	}
	return len(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.Is(unicode.Han, r) })) + han/2
}
