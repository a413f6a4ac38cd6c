package tools

import (
	"context"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
)

// MaxFillerChars bounds one filler line, in characters.
const MaxFillerChars = 200

// defaultFillerLines are the built-in lines: short, natural, varied.
var defaultFillerLines = map[nadine.Language][]string{
	nadine.English: {
		"Let me check that for you.",
		"One moment, I'll look it up.",
		"Give me a second, I'm checking.",
		"Hmm, let me see.",
	},
	nadine.French: {
		"Je regarde ça pour toi, un instant.",
		"Un moment, je vérifie.",
		"Laisse-moi vérifier.",
		"Voyons voir, je cherche.",
	},
	nadine.German: {
		"Einen Moment, ich schaue nach.",
		"Lass mich kurz nachsehen.",
		"Sekunde, ich prüfe das.",
		"Mal sehen, ich suche kurz.",
	},
	nadine.Chinese: {
		"我查一下，请稍等。",
		"稍等，我看看。",
		"让我查一查。",
		"请稍等片刻。",
	},
}

// DefaultFillerLines returns a copy of the built-in filler lines of every
// supported language.
func DefaultFillerLines() map[nadine.Language][]string {
	out := make(map[nadine.Language][]string, len(defaultFillerLines))
	for l, lines := range defaultFillerLines {
		out[l] = append([]string(nil), lines...)
	}
	return out
}

// FillerConfig configures a Filler. The zero value is an enabled Filler
// with the default lines.
type FillerConfig struct {
	// Disabled turns fillers off: Line then chooses none.
	Disabled bool
	// Lines replaces the default lines of the languages it names; each line
	// non-blank and at most MaxFillerChars.
	Lines map[nadine.Language][]string
}

// Filler rotates filler lines so consecutive turns do not repeat; when to say
// one is the turn Output's decision. A nil Filler chooses none.
type Filler struct {
	disabled bool
	lines    map[nadine.Language][]string // read-only after construction

	mu   sync.Mutex
	next map[nadine.Language]int
}

// NewFiller returns a Filler, or an EINVALID error naming the first bad
// language or line of cfg.Lines.
func NewFiller(cfg FillerConfig) (*Filler, error) {
	f := &Filler{disabled: cfg.Disabled, lines: DefaultFillerLines(), next: map[nadine.Language]int{}}
	for l, lines := range cfg.Lines {
		if !l.Valid() {
			return nil, nadine.Errorf(nadine.EINVALID, "tools: filler lines: unsupported language %q", l)
		}
		if len(lines) == 0 {
			return nil, nadine.Errorf(nadine.EINVALID, "tools: filler lines: no lines for %s", l.Name())
		}
		kept := make([]string, 0, len(lines))
		for i, line := range lines {
			if err := CheckFillerLine(line); err != nil {
				return nil, nadine.Errorf(nadine.EINVALID, "tools: filler lines: %s line %d: %v", l.Name(), i+1, err)
			}
			kept = append(kept, strings.TrimSpace(line))
		}
		f.lines[l] = kept
	}
	return f, nil
}

// CheckFillerLine reports why line cannot be a filler line: blank, not
// UTF-8, spanning several lines, or longer than MaxFillerChars characters.
func CheckFillerLine(line string) error {
	line = strings.TrimSpace(line)
	switch {
	case line == "":
		return nadine.Errorf(nadine.EINVALID, "empty line")
	case !utf8.ValidString(line):
		return nadine.Errorf(nadine.EINVALID, "invalid UTF-8")
	case strings.ContainsAny(line, "\r\n"):
		return nadine.Errorf(nadine.EINVALID, "more than one line")
	case utf8.RuneCountInString(line) > MaxFillerChars:
		return nadine.Errorf(nadine.EINVALID, "longer than %d characters", MaxFillerChars)
	}
	return nil
}

// Enabled reports whether f chooses lines (false for a nil or disabled Filler).
func (f *Filler) Enabled() bool { return f != nil && !f.disabled }

// Line returns the next filler line in lang and its language (English when
// lang has none); "" when f is nil or disabled.
func (f *Filler) Line(lang nadine.Language) (string, nadine.Language) {
	if !f.Enabled() {
		return "", lang
	}
	lang = lang.Or(nadine.DefaultLanguage)
	lines := f.lines[lang]
	if len(lines) == 0 {
		lang, lines = nadine.DefaultLanguage, f.lines[nadine.DefaultLanguage]
	}
	f.mu.Lock()
	i := f.next[lang] % len(lines)
	f.next[lang] = (i + 1) % len(lines)
	f.mu.Unlock()
	return lines[i], lang
}

// WithFiller has a slow tool (search, weather) ask the turn for a filler line
// first; it nests inside Traced in either order, so a call is traced once.
func WithFiller(t nadine.Tool) nadine.Tool {
	if t == nil {
		return t
	}
	if inner, ok := nadine.Untraced(t); ok {
		return nadine.TraceTool(WithFiller(inner))
	}
	for u := t; ; {
		if _, ok := u.(*filled); ok {
			return t
		}
		w, ok := u.(interface{ Unwrap() nadine.Tool })
		if !ok {
			break
		}
		u = w.Unwrap()
	}
	return &filled{Tool: t}
}

// filled is a tool that asks for a filler line before it runs.
type filled struct {
	nadine.Tool
}

var _ nadine.Tool = (*filled)(nil)

// Call asks for the filler, then runs the tool.
func (t *filled) Call(ctx context.Context, in nadine.ToolInput) (string, error) {
	in.AskFiller()
	return t.Tool.Call(ctx, in)
}

// Close closes the wrapped tool when it has a Close method.
func (t *filled) Close() error {
	if c, ok := t.Tool.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Unwrap returns the wrapped tool.
func (t *filled) Unwrap() nadine.Tool { return t.Tool }
