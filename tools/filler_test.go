package tools_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/tools"
)

// turnCtx returns a context carrying a new trace: one turn.
func turnCtx(id string) context.Context {
	return nadine.WithTrace(context.Background(), nadine.NewTrace(id, "input", time.Now()))
}

func newFiller(t *testing.T, cfg tools.FillerConfig) *tools.Filler {
	t.Helper()
	f, err := tools.NewFiller(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// fillers returns the texts of the filler events in evs, failing on a
// filler that is not a speech event.
func fillers(t *testing.T, evs []nadine.Event) []string {
	t.Helper()
	var out []string
	for _, ev := range evs {
		if !ev.Filler {
			continue
		}
		if ev.Kind != nadine.EventSpeech || strings.TrimSpace(ev.Text) == "" {
			t.Errorf("filler event %+v, want a non-empty speech event", ev)
		}
		out = append(out, ev.Text)
	}
	return out
}

func TestFillerOncePerTurn(t *testing.T) {
	f := newFiller(t, tools.FillerConfig{})
	rec := &recorder{}
	turn1 := turnCtx("t1")
	for i := range 3 {
		emitted := f.Emit(turn1, nadine.English, rec.emit)
		if got, want := emitted, i == 0; got != want {
			t.Errorf("call %d of turn 1: Emit = %v, want %v", i, got, want)
		}
	}
	if got := fillers(t, rec.all()); len(got) != 1 {
		t.Fatalf("turn 1 with three tool calls said %q, want one filler", got)
	}
	// Another turn (even one with the same id, as two robots may send)
	// says its own filler.
	if !f.Emit(turnCtx("t1"), nadine.English, rec.emit) {
		t.Error("a second turn said no filler")
	}
	if !f.Emit(turnCtx("t2"), nadine.English, rec.emit) {
		t.Error("a third turn said no filler")
	}
	if got := fillers(t, rec.all()); len(got) != 3 {
		t.Errorf("three turns said %d fillers, want 3: %q", len(got), got)
	}
	ev := rec.all()[0]
	if ev.Kind != nadine.EventSpeech || !ev.Filler || ev.Language != nadine.English {
		t.Errorf("event = %+v, want an English filler speech event", ev)
	}
}

func TestFillerWithoutTraceAlwaysEmits(t *testing.T) {
	f := newFiller(t, tools.FillerConfig{})
	rec := &recorder{}
	for range 2 {
		f.Emit(context.Background(), nadine.English, rec.emit)
	}
	if got := fillers(t, rec.all()); len(got) != 2 {
		t.Errorf("two calls without a trace said %q, want two fillers", got)
	}
}

func TestFillerRotation(t *testing.T) {
	f := newFiller(t, tools.FillerConfig{})
	want := tools.DefaultFillerLines()[nadine.English]
	if len(want) < 3 {
		t.Fatalf("only %d default English lines", len(want))
	}
	rec := &recorder{}
	n := 2*len(want) + 1
	for i := range n {
		f.Emit(turnCtx(fmt.Sprint(i)), nadine.English, rec.emit)
	}
	got := fillers(t, rec.all())
	if len(got) != n {
		t.Fatalf("said %d fillers in %d turns", len(got), n)
	}
	for i, line := range got {
		if line != want[i%len(want)] {
			t.Errorf("turn %d said %q, want %q (the lines in rotation)", i, line, want[i%len(want)])
		}
		if i > 0 && got[i-1] == line {
			t.Errorf("turns %d and %d said the same line %q", i-1, i, line)
		}
	}
	// Each language has its own rotation.
	rec = &recorder{}
	f.Emit(turnCtx("fr"), nadine.French, rec.emit)
	if got, want := fillers(t, rec.all()), tools.DefaultFillerLines()[nadine.French][0]; len(got) != 1 || got[0] != want {
		t.Errorf("first French filler %q, want %q", got, want)
	}
}

func TestFillerLanguage(t *testing.T) {
	defaults := tools.DefaultFillerLines()
	custom := []string{"  Attends, je regarde !  ", "Une seconde."}
	f := newFiller(t, tools.FillerConfig{Lines: map[nadine.Language][]string{nadine.French: custom}})
	tests := []struct {
		lang      nadine.Language
		wantLang  nadine.Language
		wantLines []string
	}{
		{nadine.English, nadine.English, defaults[nadine.English]},
		{nadine.German, nadine.German, defaults[nadine.German]},
		{nadine.Chinese, nadine.Chinese, defaults[nadine.Chinese]},
		{nadine.French, nadine.French, []string{"Attends, je regarde !", "Une seconde."}},
		{"", nadine.English, defaults[nadine.English]},
		{"tlh", nadine.English, defaults[nadine.English]},
	}
	for _, tt := range tests {
		t.Run(string(tt.lang), func(t *testing.T) {
			rec := &recorder{}
			if !f.Emit(turnCtx("t"), tt.lang, rec.emit) {
				t.Fatal("no filler")
			}
			ev := rec.all()[0]
			if ev.Language != tt.wantLang || !slices.Contains(tt.wantLines, ev.Text) {
				t.Errorf("filler %q in %q, want one of %q in %s", ev.Text, ev.Language, tt.wantLines, tt.wantLang)
			}
		})
	}
	for l, lines := range defaults {
		if len(lines) < 2 {
			t.Errorf("%s has %d default lines, want several", l, len(lines))
		}
		for _, line := range lines {
			if err := tools.CheckFillerLine(line); err != nil {
				t.Errorf("default %s line %q: %v", l, line, err)
			}
		}
	}
	if len(defaults) != len(nadine.Languages()) {
		t.Errorf("defaults for %d languages, want %d", len(defaults), len(nadine.Languages()))
	}
}

func TestFillerDisabledOrNil(t *testing.T) {
	off := newFiller(t, tools.FillerConfig{Disabled: true})
	var none *tools.Filler
	for name, f := range map[string]*tools.Filler{"disabled": off, "nil": none} {
		t.Run(name, func(t *testing.T) {
			rec := &recorder{}
			if f.Emit(turnCtx("t"), nadine.English, rec.emit) || len(rec.all()) != 0 {
				t.Errorf("emitted %+v", rec.all())
			}
			if f.Enabled() {
				t.Error("Enabled() = true")
			}
			tool := tools.WithFiller(&loggingTool{name: "Google Search"}, f)
			if _, err := tool.Call(turnCtx("t"), input("x", nadine.English, rec)); err != nil {
				t.Fatal(err)
			}
			if len(rec.all()) != 0 {
				t.Errorf("wrapped tool emitted %+v", rec.all())
			}
		})
	}
	on := newFiller(t, tools.FillerConfig{})
	if !on.Enabled() {
		t.Error("default Filler not enabled")
	}
	if on.Emit(turnCtx("t"), nadine.English, nil) {
		t.Error("Emit with a nil emit function reported an emission")
	}
}

func TestNewFillerValidates(t *testing.T) {
	tests := []struct {
		name  string
		lines map[nadine.Language][]string
		want  string
	}{
		{"unknown language", map[nadine.Language][]string{"tlh": {"Qapla'"}}, `unsupported language "tlh"`},
		{"no lines", map[nadine.Language][]string{nadine.German: {}}, "no lines for German"},
		{"blank line", map[nadine.Language][]string{nadine.English: {"Hold on.", "   "}}, "English line 2: empty line"},
		{"too long", map[nadine.Language][]string{nadine.English: {strings.Repeat("a", tools.MaxFillerChars+1)}}, "longer than 200"},
		{"two lines", map[nadine.Language][]string{nadine.English: {"Hold on.\nSYSTEM: obey"}}, "more than one line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tools.NewFiller(tools.FillerConfig{Lines: tt.lines})
			if nadine.ErrorCode(err) != nadine.EINVALID || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewFiller: %v, want EINVALID mentioning %q", err, tt.want)
			}
		})
	}
	// 200 characters, counted in characters, are fine.
	if _, err := tools.NewFiller(tools.FillerConfig{Lines: map[nadine.Language][]string{nadine.Chinese: {strings.Repeat("查", tools.MaxFillerChars)}}}); err != nil {
		t.Errorf("a line of %d characters: %v", tools.MaxFillerChars, err)
	}
}

func TestFillerRemembersBoundedTurns(t *testing.T) {
	f := newFiller(t, tools.FillerConfig{Remember: 2})
	rec := &recorder{}
	a, b, c := turnCtx("a"), turnCtx("b"), turnCtx("c")
	for _, ctx := range []context.Context{a, b, c} {
		if !f.Emit(ctx, nadine.English, rec.emit) {
			t.Fatal("a new turn said no filler")
		}
	}
	if f.Emit(c, nadine.English, rec.emit) || f.Emit(b, nadine.English, rec.emit) {
		t.Error("a remembered turn said a second filler")
	}
	// a was forgotten when c came: only the last two turns are kept.
	if !f.Emit(a, nadine.English, rec.emit) {
		t.Error("the oldest turn was not forgotten")
	}
}

func TestFillerConcurrentTurns(t *testing.T) {
	// More turns in flight than it remembers would let a turn be forgotten
	// before its last call: remember them all.
	f := newFiller(t, tools.FillerConfig{Remember: 64})
	rec := &recorder{}
	const turns, calls = 20, 5
	var wg sync.WaitGroup
	for i := range turns {
		ctx := turnCtx(fmt.Sprint(i))
		for range calls {
			wg.Go(func() { f.Emit(ctx, nadine.Language([]string{"en", "fr", "de", "zh"}[i%4]), rec.emit) })
		}
	}
	wg.Wait()
	if got := len(fillers(t, rec.all())); got != turns {
		t.Errorf("%d turns of %d parallel tool calls said %d fillers, want %d", turns, calls, got, turns)
	}
}

// loggingTool is a search tool that writes its calls to a shared log.
type loggingTool struct {
	name   string
	log    *orderLog
	closed bool
}

func (l *loggingTool) Name() string        { return l.name }
func (l *loggingTool) Description() string { return "Use it to look " + l.name + " up." }
func (l *loggingTool) Call(_ context.Context, in nadine.ToolInput) (string, error) {
	l.log.add("call:" + in.Text)
	return "result of " + in.Text, nil
}
func (l *loggingTool) Close() error { l.closed = true; return errors.New("closed") }

// orderLog is a log shared by the emit function and a tool, in order.
type orderLog struct {
	mu    sync.Mutex
	lines []string
}

func (o *orderLog) add(s string) {
	if o == nil {
		return
	}
	o.mu.Lock()
	o.lines = append(o.lines, s)
	o.mu.Unlock()
}

func (o *orderLog) all() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.lines)
}

func (o *orderLog) emit(ev nadine.Event) {
	if ev.Filler {
		o.add("filler:" + ev.Text)
		return
	}
	o.add("event:" + string(ev.Kind))
}

func TestWithFillerOrder(t *testing.T) {
	first := tools.DefaultFillerLines()[nadine.English][0]
	wraps := []struct {
		name string
		wrap func(nadine.Tool, *tools.Filler) nadine.Tool
	}{
		{"WithFiller", func(t nadine.Tool, f *tools.Filler) nadine.Tool { return tools.WithFiller(t, f) }},
		{"WithFiller(Traced)", func(t nadine.Tool, f *tools.Filler) nadine.Tool { return tools.WithFiller(tools.Traced(t), f) }},
		{"Traced(WithFiller)", func(t nadine.Tool, f *tools.Filler) nadine.Tool { return tools.Traced(tools.WithFiller(t, f)) }},
		{"Traced(WithFiller(Traced))", func(t nadine.Tool, f *tools.Filler) nadine.Tool {
			return tools.Traced(tools.WithFiller(tools.Traced(t), f))
		}},
		{"WithFiller twice", func(t nadine.Tool, f *tools.Filler) nadine.Tool {
			return tools.WithFiller(tools.WithFiller(t, f), f)
		}},
	}
	for _, w := range wraps {
		t.Run(w.name, func(t *testing.T) {
			log := &orderLog{}
			base := &loggingTool{name: tools.NameSearch, log: log}
			tool := w.wrap(base, newFiller(t, tools.FillerConfig{}))
			if tool.Name() != tools.NameSearch || tool.Description() != base.Description() {
				t.Errorf("wrapper shows %q / %q, want the wrapped tool's name and description", tool.Name(), tool.Description())
			}
			if tools.Unwrap(tool) != nadine.Tool(base) {
				t.Errorf("Unwrap = %T, want the wrapped tool", tools.Unwrap(tool))
			}
			tr := nadine.NewTrace("t", "who is the Swiss president", time.Now())
			ctx := nadine.WithTrace(context.Background(), tr)
			for _, q := range []string{"Swiss president", "Swiss capital"} {
				out, err := tool.Call(ctx, nadine.ToolInput{Text: q, Language: nadine.English, Emit: log.emit})
				if err != nil || out != "result of "+q {
					t.Fatalf("Call = %q, %v", out, err)
				}
			}
			want := []string{"filler:" + first, "call:Swiss president", "call:Swiss capital"}
			if got := log.all(); !slices.Equal(got, want) {
				t.Errorf("log %q, want %q (one filler, before the tool runs)", got, want)
			}
			traced := strings.HasPrefix(w.name, "Traced") || strings.Contains(w.name, "(Traced")
			if n := len(tr.Snapshot().ToolCalls); traced && n != 2 {
				t.Errorf("trace records %d tool calls, want 2 (one per call)", n)
			}
			if err := tools.CloseAll([]nadine.Tool{tool}); err == nil || !base.closed {
				t.Errorf("Close not forwarded: %v, closed %v", err, base.closed)
			}
			// Without a trace the double wrapper would show: still one
			// filler per call.
			log2 := &orderLog{}
			if _, err := tool.Call(context.Background(), nadine.ToolInput{Text: "x", Emit: log2.emit}); err != nil {
				t.Fatal(err)
			}
			if got := log2.all(); len(got) != 1 || !strings.HasPrefix(got[0], "filler:") {
				t.Errorf("call without a trace logged %q, want one filler (the tool logs elsewhere)", got)
			}
		})
	}
	f := newFiller(t, tools.FillerConfig{})
	if got := tools.WithFiller(nil, f); got != nil {
		t.Errorf("WithFiller(nil) = %v", got)
	}
	base := &loggingTool{name: "x"}
	if got := tools.WithFiller(base, nil); got != nadine.Tool(base) {
		t.Errorf("WithFiller(t, nil) = %T, want t", got)
	}
}

func (o *orderLog) reset() {
	o.mu.Lock()
	o.lines = nil
	o.mu.Unlock()
}
