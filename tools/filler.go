package tools

import (
	"context"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
	"weak"

	"github.com/nadine-robot/nadine"
)

// MaxFillerChars bounds one filler line, in characters.
const MaxFillerChars = 200

// DefaultFillerRemember is how many recent turns a Filler remembers having
// spoken in (FillerConfig.Remember).
const DefaultFillerRemember = 1024

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
	// Disabled turns fillers off: Emit then emits nothing.
	Disabled bool
	// Lines replaces the default lines of the languages it names; the
	// other languages keep theirs. Each language must be supported, each
	// list non-empty, each line non-blank and at most MaxFillerChars
	// characters.
	Lines map[nadine.Language][]string
	// Remember is how many recent turns are remembered to speak at most
	// one filler per turn (DefaultFillerRemember).
	Remember int
}

// Filler says a short line ("Let me check that for you.") while a turn
// waits on a slow tool, so that the robot is not silent: a nadine.Event of
// kind EventSpeech with Filler set, which is published but is not part of
// the reply. It speaks at most once per turn, in the session language
// (English when the language is not supported), taking each language's
// lines in rotation so that consecutive turns do not repeat. One Filler may
// be shared by the concurrent turns of several robots. A nil *Filler emits
// nothing.
type Filler struct {
	disabled bool
	lines    map[nadine.Language][]string // read-only after construction
	remember int

	mu     sync.Mutex
	next   map[nadine.Language]int
	spoken map[weak.Pointer[nadine.Trace]]struct{}
	order  []weak.Pointer[nadine.Trace] // ring of the keys of spoken, oldest at head
	head   int
}

// NewFiller returns a Filler, or an EINVALID error naming the first bad
// language or line of cfg.Lines.
func NewFiller(cfg FillerConfig) (*Filler, error) {
	f := &Filler{
		disabled: cfg.Disabled,
		lines:    DefaultFillerLines(),
		remember: cfg.Remember,
		next:     map[nadine.Language]int{},
		spoken:   map[weak.Pointer[nadine.Trace]]struct{}{},
	}
	if f.remember <= 0 {
		f.remember = DefaultFillerRemember
	}
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

// Enabled reports whether f emits fillers (false for a nil or disabled
// Filler).
func (f *Filler) Enabled() bool { return f != nil && !f.disabled }

// Emit emits the next filler line in lang through emit, unless f is nil or
// disabled, emit is nil, or a filler was already emitted in this turn. The
// turn is the trace of ctx (nadine.TraceFrom): several tool calls of one
// turn say one filler; the last Remember turns are remembered. Without a
// trace in ctx every call emits. It reports whether it emitted.
func (f *Filler) Emit(ctx context.Context, lang nadine.Language, emit nadine.EmitFunc) bool {
	if !f.Enabled() || emit == nil {
		return false
	}
	lang = lang.Or(nadine.DefaultLanguage)
	tr := nadine.TraceFrom(ctx)
	f.mu.Lock()
	if tr != nil {
		// Keyed by the trace itself, not its id: turns of different robots
		// may carry the same id. A weak pointer keeps no trace alive.
		key := weak.Make(tr)
		if _, ok := f.spoken[key]; ok {
			f.mu.Unlock()
			return false
		}
		f.remember1(key)
	}
	lines := f.lines[lang]
	if len(lines) == 0 {
		lang, lines = nadine.DefaultLanguage, f.lines[nadine.DefaultLanguage]
	}
	i := f.next[lang] % len(lines)
	f.next[lang] = (i + 1) % len(lines)
	f.mu.Unlock()
	emit(nadine.Event{Kind: nadine.EventSpeech, Text: lines[i], Language: lang, Filler: true})
	return true
}

// remember1 records key, forgetting the oldest key when the ring is full.
// It runs under f.mu.
func (f *Filler) remember1(key weak.Pointer[nadine.Trace]) {
	if len(f.order) < f.remember {
		f.order = append(f.order, key)
	} else {
		delete(f.spoken, f.order[f.head])
		f.order[f.head] = key
		f.head = (f.head + 1) % len(f.order)
	}
	f.spoken[key] = struct{}{}
}

// WithFiller wraps t so that each call first emits f's filler line (through
// ToolInput.Emit, in ToolInput.Language; once per turn, see Filler.Emit),
// then calls t. Use it for tools a turn waits on (search, news, weather).
// The wrapper keeps t's name and description, forwards Close, and Unwrap
// returns t. It composes with Traced in either order: the filler wrapper
// always sits inside the traced one, so Traced(WithFiller(t, f)) and
// WithFiller(Traced(t), f) are the same tool and each call is recorded
// once. A nil f, or a t already wrapped with a filler, returns t.
func WithFiller(t nadine.Tool, f *Filler) nadine.Tool {
	if t == nil || f == nil {
		return t
	}
	if inner, ok := nadine.Untraced(t); ok {
		return nadine.TraceTool(WithFiller(inner, f))
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
	return &filled{Tool: t, f: f}
}

// filled is a tool that says a filler line before it runs.
type filled struct {
	nadine.Tool
	f *Filler
}

var _ nadine.Tool = (*filled)(nil)

// Call emits the filler, then runs the tool.
func (t *filled) Call(ctx context.Context, in nadine.ToolInput) (string, error) {
	t.f.Emit(ctx, in.Language, in.Emit)
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
