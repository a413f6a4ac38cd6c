package tools

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

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

// New returns the configured tools, traced, in a stable order (search and
// weather only with a key). Call CloseAll to stop background work.
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
	ts = append(ts, singer, NewLanguageSwitcher(logger), NewForget(logger))
	for i, t := range ts {
		ts[i] = Traced(t)
	}
	return ts
}

// Traced wraps t so that each call is recorded in the context's trace; it
// is nadine.TraceTool (the engines wrap their tools with it too).
func Traced(t nadine.Tool) nadine.Tool { return nadine.TraceTool(t) }

// Unwrap returns the tool inside t's wrappers (nadine.UnwrapTool).
func Unwrap(t nadine.Tool) nadine.Tool { return nadine.UnwrapTool(t) }

// Lookup finds the tool called name, forgiving its spelling
// (nadine.LookupTool).
func Lookup(tools []nadine.Tool, name string) (nadine.Tool, bool) {
	return nadine.LookupTool(tools, name)
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
