package tools_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/tools"
)

func names(ts []nadine.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name())
	}
	return out
}

func TestNewRegistersByKeys(t *testing.T) {
	tests := []struct {
		name string
		cfg  tools.Config
		want []string
	}{
		{"no keys", tools.Config{}, []string{"Nadine behaviour", "Sing a song", "Languages Switcher", "Forget me"}},
		{"serper only", tools.Config{Search: tools.SearchConfig{APIKey: "k"}},
			[]string{"Google Search", "Google News", "Nadine behaviour", "Sing a song", "Languages Switcher", "Forget me"}},
		{"weather only", tools.Config{Weather: tools.WeatherConfig{APIKey: "k"}},
			[]string{"Weather App", "Nadine behaviour", "Sing a song", "Languages Switcher", "Forget me"}},
		{"blank key", tools.Config{Weather: tools.WeatherConfig{APIKey: "  "}},
			[]string{"Nadine behaviour", "Sing a song", "Languages Switcher", "Forget me"}},
		{"both keys", tools.Config{Search: tools.SearchConfig{APIKey: "k"}, Weather: tools.WeatherConfig{APIKey: "k"}},
			[]string{"Google Search", "Google News", "Weather App", "Nadine behaviour", "Sing a song", "Languages Switcher", "Forget me"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := tools.New(tt.cfg, nil)
			defer tools.CloseAll(ts)
			if got := names(ts); strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("tools = %q, want %q", got, tt.want)
			}
			for _, tool := range ts {
				if strings.TrimSpace(tool.Description()) == "" || !strings.HasPrefix(tool.Description(), "Use it when") && !strings.HasPrefix(tool.Description(), "Use it for") {
					t.Errorf("%s: description %q does not say when to use it", tool.Name(), tool.Description())
				}
			}
		})
	}
}

func TestNewLogsNoKeys(t *testing.T) {
	logger, logs := logBuffer()
	ts := tools.New(tools.Config{
		Search:  tools.SearchConfig{APIKey: serperKey},
		Weather: tools.WeatherConfig{APIKey: owmKey},
		Songs:   tools.SongConfig{Dir: "/nonexistent/songs"},
	}, logger)
	defer tools.CloseAll(ts)
	if strings.Contains(logs.String(), serperKey) || strings.Contains(logs.String(), owmKey) {
		t.Errorf("logs contain a key:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "song library not loaded") {
		t.Errorf("a broken song library was not logged:\n%s", logs.String())
	}
	if _, ok := tools.Lookup(ts, "Sing a song"); !ok {
		t.Error("Sing a song missing with a broken library")
	}
}

func TestNewToolsAreTraced(t *testing.T) {
	srv := newFakeServer(t, http.StatusOK, testdata(t, "owm_carouge.json"))
	ts := tools.New(tools.Config{
		Weather:   tools.WeatherConfig{APIKey: owmKey, BaseURL: srv.URL},
		Behaviour: tools.BehaviourConfig{Wait: -1},
	}, nil)
	defer tools.CloseAll(ts)
	tr := nadine.NewTrace("t1", "hello", time.Now())
	ctx := nadine.WithTrace(t.Context(), tr)

	weather, _ := tools.Lookup(ts, "Weather App")
	out, err := weather.Call(ctx, input("Carouge,CH", nadine.English, nil))
	if err != nil {
		t.Fatal(err)
	}
	behaviour, _ := tools.Lookup(ts, "nadine BEHAVIOUR")
	out2, _ := behaviour.Call(ctx, input("smile", nadine.English, nil))

	calls := tr.Snapshot().ToolCalls
	if len(calls) != 2 {
		t.Fatalf("trace has %d tool calls, want 2", len(calls))
	}
	if c := calls[0]; c.Tool != "Weather App" || c.Input != "Carouge,CH" || c.Output != out || c.Error != "" || c.Start.IsZero() {
		t.Errorf("first record = %+v", c)
	}
	if c := calls[1]; c.Tool != "Nadine behaviour" || c.Output != out2 {
		t.Errorf("second record = %+v", c)
	}
}

type stubTool struct {
	out    string
	err    error
	panics bool
	closed bool
}

func (s *stubTool) Name() string        { return "Stub" }
func (s *stubTool) Description() string { return "Use it when testing." }
func (s *stubTool) Call(context.Context, nadine.ToolInput) (string, error) {
	if s.panics {
		panic("boom")
	}
	return s.out, s.err
}
func (s *stubTool) Close() error { s.closed = true; return nil }

func TestTraced(t *testing.T) {
	tests := []struct {
		name     string
		stub     *stubTool
		wantOut  string
		wantErr  string
		wantCode string
	}{
		{"ok", &stubTool{out: "Tell the human 'hi'."}, "Tell the human 'hi'.", "", ""},
		{"error", &stubTool{err: nadine.Errorf(nadine.EUNAVAILABLE, "stub: down")}, "", "stub: down", nadine.EUNAVAILABLE},
		{"panic", &stubTool{panics: true}, "", "tools: Stub panicked: boom", nadine.EINTERNAL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := nadine.NewTrace("t", "in", time.Now())
			tool := tools.Traced(tools.Traced(tt.stub)) // wrapping twice records once
			out, err := tool.Call(nadine.WithTrace(t.Context(), tr), nadine.ToolInput{Text: "x", Emit: func(nadine.Event) {}})
			if out != tt.wantOut || nadine.ErrorCode(err) != tt.wantCode {
				t.Errorf("Call = %q, %v; want %q, code %q", out, err, tt.wantOut, tt.wantCode)
			}
			calls := tr.Snapshot().ToolCalls
			if len(calls) != 1 {
				t.Fatalf("recorded %d calls, want 1", len(calls))
			}
			if c := calls[0]; c.Tool != "Stub" || c.Input != "x" || c.Output != tt.wantOut || c.Error != tt.wantErr {
				t.Errorf("record = %+v", c)
			}
			if tools.Unwrap(tool) != nadine.Tool(tt.stub) {
				t.Error("Unwrap does not return the stub")
			}
		})
	}
	// No trace in the context: nothing to record, no panic.
	if _, err := tools.Traced(&stubTool{}).Call(t.Context(), nadine.ToolInput{}); err != nil {
		t.Error(err)
	}
	if tools.Traced(nil) != nil {
		t.Error("Traced(nil) != nil")
	}
}

func TestCloseAll(t *testing.T) {
	stub := &stubTool{}
	ts := []nadine.Tool{tools.Traced(stub), tools.NewLanguageSwitcher(nil)}
	if err := tools.CloseAll(ts); err != nil || !stub.closed {
		t.Errorf("CloseAll = %v, closed %v", err, stub.closed)
	}
}

func TestLookup(t *testing.T) {
	ts := tools.New(tools.Config{}, nil)
	defer tools.CloseAll(ts)
	for _, name := range []string{"Sing a song", "sing a song", ` "Languages Switcher" `} {
		if _, ok := tools.Lookup(ts, name); !ok {
			t.Errorf("Lookup(%q) found nothing", name)
		}
	}
	if _, ok := tools.Lookup(ts, "Google Search"); ok {
		t.Error("Lookup found Google Search without a key")
	}
	singer, ok := tools.Unwrap(ts[1]).(*tools.Singer)
	if !ok {
		t.Fatalf("tool 1 is %T, want *tools.Singer", tools.Unwrap(ts[1]))
	}
	if len(singer.Songs()) != 0 {
		t.Errorf("singer without a dir has songs %v", singer.Songs())
	}
	if err := tools.CloseAll(ts); err != nil {
		t.Errorf("CloseAll = %v", err)
	}
}
