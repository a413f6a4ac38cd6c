package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nadine-robot/nadine/sqlite"
	"github.com/nadine-robot/nadine/turnstats"
)

// runReport writes a date range's figures from serve's turn records: one
// self-contained HTML file, for a team's end-of-day mail, and a JSON summary.
func runReport(ctx context.Context, args []string, e env) error {
	fs, path := flags("report", e)
	from := fs.String("from", "", "first day, YYYY-MM-DD (default: today)")
	to := fs.String("to", "", "last day, YYYY-MM-DD, included (default: the first day)")
	robot := fs.String("robot", "", "one robot's figures (a topic prefix; default: all robots)")
	out := fs.String("out", "", "HTML file to write (default: nadine-report-FROM[-TO].html)")
	jsonOut := fs.String("json", "", "JSON summary to write (default: the HTML file's name with .json; - for standard output)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("report: unexpected argument %q", fs.Arg(0))}
	}
	cfg, err := e.loadConfig(*path)
	if err != nil {
		return err
	}
	now := time.Now()
	start, end, err := reportRange(*from, *to, now)
	if err != nil {
		return err
	}
	st, err := sqlite.ReadStats(ctx, filepath.Join(cfg.DataDir, "stats.db"))
	if err != nil {
		return err
	}
	defer st.Close()
	sum, err := st.Summary(ctx, start, end, now, *robot)
	if err != nil {
		return err
	}
	name := "nadine-report-" + start.Format("2006-01-02")
	if last := end.AddDate(0, 0, -1); !last.Equal(start) {
		name += "-" + last.Format("2006-01-02")
	}
	if *out == "" {
		*out = name + ".html"
	}
	if *jsonOut == "" {
		*jsonOut = strings.TrimSuffix(*out, filepath.Ext(*out)) + ".json"
	}
	f, err := os.Create(*out)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := turnstats.WriteReport(f, sum, now); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	b, err := json.MarshalIndent(map[string]any{"period": turnstats.Period(sum), "summary": sum, "figures": turnstats.Figures(sum)}, "", "  ")
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if *jsonOut == "-" {
		_, err = fmt.Fprintf(e.stdout, "%s\n", b)
		return err
	}
	if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	fmt.Fprintf(e.stdout, "%s: %d turns (%d answered, %d fallback), %d visitors, first speech p95 %.2f s\nwrote %s and %s\n",
		turnstats.Period(sum), sum.Turns, sum.Outcomes[turnstats.Answered], sum.Outcomes[turnstats.Fallback], sum.Visitors,
		sum.FirstSpeech.P95, *out, *jsonOut)
	return nil
}

// reportRange is [first day 00:00, day after the last 00:00), local time.
func reportRange(from, to string, now time.Time) (time.Time, time.Time, error) {
	day := func(flag, s string) (time.Time, error) {
		t, err := time.ParseInLocation("2006-01-02", s, now.Location())
		if err != nil {
			return time.Time{}, usageError{fmt.Sprintf("report: --%s %q: want YYYY-MM-DD", flag, s)}
		}
		return t, nil
	}
	y, m, d := now.Date()
	start := time.Date(y, m, d, 0, 0, 0, 0, now.Location())
	if from != "" {
		t, err := day("from", from)
		if err != nil {
			return time.Time{}, time.Time{}, err
		}
		start = t
	}
	last := start
	if to != "" {
		t, err := day("to", to)
		if err != nil {
			return time.Time{}, time.Time{}, err
		}
		last = t
	}
	if last.Before(start) {
		return time.Time{}, time.Time{}, usageError{fmt.Sprintf("report: --to %s is before --from %s", last.Format("2006-01-02"), start.Format("2006-01-02"))}
	}
	return start, last.AddDate(0, 0, 1), nil
}
