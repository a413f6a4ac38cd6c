package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/config"
	"github.com/nadine-robot/nadine/tools"
)

// runEval prints the graph agents' pass rates on the configured models, so a
// lab can compare models; failed calls make the rates meaningless: exit 1.
func runEval(ctx context.Context, args []string, e env) error {
	fs, path := flags("eval", e)
	asJSON := fs.Bool("json", false, "print JSON")
	verbose := fs.Bool("v", false, "list each failed case")
	set := fs.String("set", "all", "eval offline: the test set, all, main, heldout, fresh, sealed or a probe set (probe, probe2, …)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 1 {
		return usageError{"usage: nadine eval [AGENT | ROLE | offline] [--set all|main|heldout|fresh|sealed|probeN] [--json] [-v]"}
	}
	name := ""
	if len(rest) == 1 {
		name = rest[0]
	}
	if name == "offline" {
		// The offline engine's own test set: no model, no configuration.
		return runEvalOffline(ctx, e, *set, *asJSON, *verbose)
	}
	if _, err := agents.EvalSelect(name); err != nil {
		return usageError{err.Error()}
	}
	a, err := openTool(ctx, *path, e)
	if err != nil {
		return err
	}
	defer a.Close()
	counters := map[string]*callCounter{} // by profile
	models := func(role string) nadine.ChatModel {
		m := a.model(role)
		if m == nil {
			return nil
		}
		p := a.cfg.Models.Roles[role]
		if counters[p] == nil {
			counters[p] = &callCounter{ChatModel: m}
		}
		return counters[p]
	}
	// The router's cases show the model the search tools as the graph
	// engine does (their names and descriptions; they are never called).
	searchTools := []nadine.Tool{tools.NewSearch(tools.SearchConfig{}, nil), tools.NewNews(tools.SearchConfig{}, nil),
		tools.NewWeather(tools.WeatherConfig{}, nil)}
	results, err := agents.Eval(ctx, models, name, searchTools...)
	if err != nil {
		return err
	}
	var missing []string // roles without a usable profile
	for _, r := range results {
		if a.model(r.Role) == nil && !slices.Contains(missing, r.Role) {
			missing = append(missing, r.Role)
		}
	}
	if len(missing) == len(results) {
		return fmt.Errorf("eval: no model reachable for %s (%s); configure models.profiles", strings.Join(missing, ", "), a.offline)
	}
	if *asJSON {
		if err := json.NewEncoder(e.stdout).Encode(results); err != nil {
			return err
		}
	} else if err := printEval(e, a, results, *verbose); err != nil {
		return err
	}
	if err := callFailures(counters, a.cfg); err != nil {
		return err
	}
	if len(missing) > 0 {
		return fmt.Errorf("eval: no model for %s: their profiles have no key or are not configured", strings.Join(missing, ", "))
	}
	return nil
}

// printEval writes the pass rate table, and each failure with -v.
func printEval(e env, a *app, results []agents.EvalResult, verbose bool) error {
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "AGENT\tROLE\tMODEL\tPASSED\tRATE\tTIME")
	total, passed := 0, 0
	for _, r := range results {
		model := "-"
		if p, ok := a.cfg.Models.Profiles[a.cfg.Models.Roles[r.Role]]; ok {
			model = p.Model
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d/%d\t%.0f%%\t%v\n", r.Agent, r.Role, model, r.Passed, r.Cases, 100*r.PassRate(), r.Duration.Round(1e6))
		total += r.Cases
		passed += r.Passed
	}
	if total > 0 {
		fmt.Fprintf(w, "all\t\t\t%d/%d\t%.0f%%\t\n", passed, total, 100*float64(passed)/float64(total))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if verbose {
		for _, r := range results {
			for _, f := range r.Failures {
				fmt.Fprintf(e.stdout, "FAIL %s: %+v\n", r.Agent, f)
			}
		}
	}
	return nil
}

// callFailures names each profile whose calls failed, how many and the first
// error: "eval: 13 of 13 calls failed: models.profiles.default unreachable: …".
func callFailures(counters map[string]*callCounter, cfg config.Config) error {
	profiles := make([]string, 0, len(counters))
	for p := range counters {
		profiles = append(profiles, p)
	}
	sort.Strings(profiles)
	var parts []string
	calls, failed := 0, 0
	for _, p := range profiles {
		c := counters[p]
		c.mu.Lock()
		calls += c.calls
		failed += c.failed
		if c.failed > 0 {
			how := "failed"
			if nadine.ErrorCode(c.first) == nadine.EUNAVAILABLE {
				how = "unreachable"
			}
			parts = append(parts, fmt.Sprintf("models.profiles.%s (%s at %s) %s: %v", p, cfg.Models.Profiles[p].Model, cfg.Models.Profiles[p].BaseURL, how, c.first))
		}
		c.mu.Unlock()
	}
	if failed == 0 {
		return nil
	}
	return fmt.Errorf("eval: %d of %d calls failed, the rates above do not measure the models: %s", failed, calls, strings.Join(parts, "; "))
}

// callCounter counts a profile's calls and those never answered, so that eval
// tells a model that answered wrongly from one that never answered.
type callCounter struct {
	nadine.ChatModel
	mu     sync.Mutex
	calls  int
	failed int
	first  error
}

func (c *callCounter) count(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	switch nadine.ErrorCode(err) {
	case "", nadine.EBADOUTPUT:
		// An answer, however wrong, measures the model.
	default:
		c.failed++
		if c.first == nil {
			c.first = err
		}
	}
}

// Chat counts the call.
func (c *callCounter) Chat(ctx context.Context, req nadine.ChatRequest) (nadine.ChatResponse, error) {
	resp, err := c.ChatModel.Chat(ctx, req)
	c.count(err)
	return resp, err
}

// ChatStream counts the call.
func (c *callCounter) ChatStream(ctx context.Context, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
	resp, err := c.ChatModel.ChatStream(ctx, req, onDelta)
	c.count(err)
	return resp, err
}
