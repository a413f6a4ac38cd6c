package main

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/nadine-robot/nadine/agents"
)

// runEval runs seed 001's test samples against the configured models and
// prints a pass rate per agent, so a lab can compare models; `eval offline`
// runs the offline engine's test set instead (eval_offline.go).
func runEval(ctx context.Context, args []string, e env) error {
	fs, path := flags("eval", e)
	asJSON := fs.Bool("json", false, "print JSON")
	verbose := fs.Bool("v", false, "list each failed case")
	set := fs.String("set", "main", "eval offline: the test set, main or heldout")
	if err := fs.Parse(args); err != nil {
		return err
	}
	agent := ""
	if fs.NArg() > 0 {
		agent = fs.Arg(0)
	}
	if agent == "offline" {
		// The offline engine's own test set: no model, no configuration.
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return err
		}
		if fs.NArg() > 0 {
			return usageError{"usage: nadine eval offline [--set main|heldout] [--json] [-v]"}
		}
		return runEvalOffline(ctx, e, *set, *asJSON, *verbose)
	}
	a, err := openTool(ctx, *path, e)
	if err != nil {
		return err
	}
	defer a.Close()
	if a.model(agents.RoleResponse) == nil && a.model(agents.RoleIntent) == nil {
		return fmt.Errorf("eval: no model reachable (%s); configure models.profiles", a.offline)
	}
	results, err := agents.Eval(ctx, a.model, agent)
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(e.stdout).Encode(results)
	}
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
	if *verbose {
		for _, r := range results {
			for _, f := range r.Failures {
				fmt.Fprintf(e.stdout, "FAIL %s: %+v\n", r.Agent, f)
			}
		}
	}
	return nil
}
