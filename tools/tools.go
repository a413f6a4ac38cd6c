package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
)

// Config configures every tool. Zero values are sane defaults; a tool that
// needs an API key is left out when its key is empty.
type Config struct {
	Search    SearchConfig
	Weather   WeatherConfig
	Behaviour BehaviourConfig
	Songs     SongConfig
}

// New returns the tools of seed 000 in a stable order, each wrapped with
// Traced: Google Search and Google News (only with cfg.Search.APIKey),
// Weather App (only with cfg.Weather.APIKey), Nadine behaviour, Sing a song
// and Languages Switcher (always). A song library that cannot be loaded is
// logged and leaves Sing a song with no songs. Call CloseAll on the result
// to stop background work.
func New(cfg Config, logger *slog.Logger) []nadine.Tool {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	var ts []nadine.Tool
	if strings.TrimSpace(cfg.Search.APIKey) != "" {
		ts = append(ts, NewSearch(cfg.Search, logger), NewNews(cfg.Search, logger))
	} else {
		logger.Info("tools: no Serper API key; Google Search and Google News are off", "env", SerperKeyEnv)
	}
	if strings.TrimSpace(cfg.Weather.APIKey) != "" {
		ts = append(ts, NewWeather(cfg.Weather, logger))
	} else {
		logger.Info("tools: no OpenWeatherMap API key; Weather App is off", "env", OpenWeatherMapKeyEnv)
	}
	ts = append(ts, NewBehaviour(cfg.Behaviour, logger))
	singer, err := NewSinger(cfg.Songs, logger)
	if err != nil {
		logger.Error("tools: song library not loaded; Sing a song knows no songs", "dir", cfg.Songs.Dir, "err", err)
	}
	ts = append(ts, singer, NewLanguageSwitcher(logger))
	for i, t := range ts {
		ts[i] = Traced(t)
	}
	return ts
}

// Traced wraps t so that each call is recorded as a nadine.ToolCallRecord
// in the context's trace (nadine.TraceFrom) with its input, output,
// duration and error. A panic in the tool becomes an EINTERNAL error. The
// wrapper forwards Close to t when t has one; Unwrap returns t. Wrapping
// twice records once.
func Traced(t nadine.Tool) nadine.Tool {
	if t == nil {
		return nil
	}
	if _, ok := t.(*traced); ok {
		return t
	}
	return &traced{t}
}

type traced struct{ nadine.Tool }

var _ nadine.Tool = (*traced)(nil)

// Call runs the tool and records the call.
func (t *traced) Call(ctx context.Context, in nadine.ToolInput) (out string, err error) {
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			out, err = "", nadine.Errorf(nadine.EINTERNAL, "tools: %s panicked: %v", t.Name(), p)
		}
		rec := nadine.ToolCallRecord{
			Tool:     t.Name(),
			Input:    in.Text,
			Output:   out,
			Start:    start,
			Duration: time.Since(start),
		}
		if err != nil {
			rec.Error = err.Error()
		}
		nadine.TraceFrom(ctx).AddToolCall(rec)
	}()
	return t.Tool.Call(ctx, in)
}

// Close closes the wrapped tool when it has a Close method.
func (t *traced) Close() error {
	if c, ok := t.Tool.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Unwrap returns the wrapped tool.
func (t *traced) Unwrap() nadine.Tool { return t.Tool }

// Unwrap returns the tool inside t's wrappers (see Traced).
func Unwrap(t nadine.Tool) nadine.Tool {
	for {
		u, ok := t.(interface{ Unwrap() nadine.Tool })
		if !ok {
			return t
		}
		t = u.Unwrap()
	}
}

// Lookup finds the tool called name: the exact name first, then ignoring
// case, surrounding spaces and quotes (models vary the spelling).
func Lookup(tools []nadine.Tool, name string) (nadine.Tool, bool) {
	for _, t := range tools {
		if t.Name() == name {
			return t, true
		}
	}
	n := strings.ToLower(strings.Trim(strings.TrimSpace(name), "\"'`"))
	for _, t := range tools {
		if strings.ToLower(t.Name()) == n {
			return t, true
		}
	}
	return nil, false
}

// CloseAll closes every tool that has a Close method (Sing a song stops
// its background composition) and returns their errors joined.
func CloseAll(tools []nadine.Tool) error {
	var errs []error
	for _, t := range tools {
		if c, ok := t.(io.Closer); ok {
			if err := c.Close(); err != nil {
				errs = append(errs, fmt.Errorf("tools: close %s: %w", t.Name(), err))
			}
		}
	}
	return errors.Join(errs...)
}
