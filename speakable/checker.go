package speakable

import (
	"fmt"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/answer"
)

// Checker is the gate of one turn's reply sentences. Build it with New; a
// nil *Checker checks what needs no prompt. It is safe for concurrent
// use (it is read only).
type Checker struct {
	echo *echo
}

// New prepares the check of a turn whose engines sent prompts.
func New(prompts []nadine.Prompt) *Checker {
	return &Checker{echo: newEcho(prompts)}
}

// notSpeech is a sentence that shows the text is not a reply.
func notSpeech(format string, args ...any) error {
	return nadine.Errorf(nadine.EBADOUTPUT, "speakable: not speech: "+format, args...)
}

// leftOut is a sentence left out of a reply that goes on.
func leftOut(format string, args ...any) error {
	return &nadine.Error{Code: nadine.EBADOUTPUT, Message: "speakable: left out: " + fmt.Sprintf(format, args...), Err: nadine.ErrLeftOut}
}

// Sentence returns a sentence of a reply in lang as it is to be spoken
// ("" when there is nothing to say), or an EBADOUTPUT error saying why it
// is not spoken: one that wraps nadine.ErrLeftOut for a sentence left out
// of a reply that goes on (an address it cannot rewrite, an
// assistant-ism), any other for a sentence that shows the text is not a
// reply (an echo of the prompt, a label of the answer format, JSON,
// markup, code).
func (c *Checker) Sentence(sentence string, lang nadine.Language) (string, error) {
	raw := strings.TrimSpace(sentence)
	if raw == "" {
		return "", nil
	}
	if label, rest, ok := answer.FormatLabel(raw); ok {
		if !answer.IsFinalLabel(label) {
			return "", notSpeech("a label of the ReAct format (%q)", label)
		}
		raw = rest
	}
	linked := rewriteLinks(raw, lang, c.spelled())
	clean, err := nadine.SpeechSentence(linked)
	if err != nil || clean == "" {
		return clean, err
	}
	if c != nil {
		if why := c.echo.check(raw, clean); why != "" {
			return "", notSpeech("%s", why)
		}
	}
	if strings.Contains(clean, dropped) {
		return "", leftOut("a web or e-mail address")
	}
	out := assistantism(clean)
	if out == "" {
		return "", leftOut("an assistant-ism")
	}
	return out, nil
}

// Check returns c.Sentence in lang as a nadine.SentenceCheck.
func (c *Checker) Check(lang nadine.Language) nadine.SentenceCheck {
	return func(s string) (string, error) { return c.Sentence(s, lang) }
}

// Reply returns a model's whole reply in lang as the text to speak, the
// sentences left out, or an EBADOUTPUT error when it is not a reply (see
// nadine.CheckedSpeech).
func (c *Checker) Reply(text string, lang nadine.Language) (spoken string, left []string, err error) {
	return nadine.CheckedSpeech(rewriteLinks(answer.Preamble(text), lang, c.spelled()), c.Check(lang))
}

func (c *Checker) spelled() map[string]string {
	if c == nil {
		return nil
	}
	return c.echo.spelled
}
