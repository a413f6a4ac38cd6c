package main

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/config"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/intents"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/spoken"
)

// offlineEvalFS holds the eval sets; the sealed one is never read while tuning
// (docs/offline.md).
//
//go:embed testdata/offline_eval
var offlineEvalFS embed.FS

// offlineSet is one test set of the offline eval.
type offlineSet struct {
	name   string
	dir    string
	target float64 // the pass rate every language must reach
	sealed bool    // its utterances and replies are never printed
}

// offlineSets are the test sets, in the order the eval runs them: the four
// named ones, then every probe* directory of fsys (a new probe set is a new
// directory, registered nowhere else), probe, probe2, … in number order.
func offlineSets(fsys fs.FS) ([]offlineSet, error) {
	sets := []offlineSet{
		{name: "main", dir: offlineSetMain, target: 0.9},
		{name: "heldout", dir: offlineSetMain + "/heldout", target: 0.9},
		{name: "fresh", dir: offlineSetMain + "/fresh", target: 0.95},
		{name: "sealed", dir: offlineSetMain + "/sealed", target: 0.9, sealed: true},
	}
	entries, err := fs.ReadDir(fsys, offlineSetMain)
	if err != nil {
		return nil, fmt.Errorf("eval offline: the test sets: %w", err)
	}
	var probes []string
	for _, e := range entries {
		if e.IsDir() && probeNumber(e.Name()) > 0 {
			probes = append(probes, e.Name())
		}
	}
	sort.Slice(probes, func(i, j int) bool { return probeNumber(probes[i]) < probeNumber(probes[j]) })
	for _, p := range probes {
		sets = append(sets, offlineSet{name: p, dir: offlineSetMain + "/" + p, target: 0.9})
	}
	return sets, nil
}

// probeNumber is a probe set's number ("probe" 1, "probe12" 12), 0 for a
// directory that is no probe set.
func probeNumber(dir string) int {
	rest, ok := strings.CutPrefix(dir, "probe")
	if !ok {
		return 0
	}
	if rest == "" {
		return 1
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 2 {
		return 0
	}
	return n
}

// offlineSetNames lists the sets' names for a usage message.
func offlineSetNames(sets []offlineSet) string {
	names := make([]string, len(sets))
	for i, s := range sets {
		names[i] = s.name
	}
	return strings.Join(names, ", ")
}

// The main set's directory, which TestOfflineDocShowsTheEval reads.
const offlineSetMain = "testdata/offline_eval"

// offlineEvalSet is one language's file of the test set.
type offlineEvalSet struct {
	Language     nadine.Language      `json:"language"`
	Interactions []offlineInteraction `json:"interactions"`
}

// offlineInteraction is one visitor's conversation, from a fresh session.
type offlineInteraction struct {
	Name  string             `json:"name"`
	Turns []offlineEvalTurns `json:"turns"`
}

// offlineEvalTurns is one utterance and what its reply must be.
type offlineEvalTurns struct {
	Say      string `json:"say"`
	Category string `json:"category"`
	// Intent is the trace's outcome ("greeting"); a trailing "*" is a prefix.
	Intent string `json:"intent"`
	// Contains: what the reply must say, any case; "|" separates alternatives.
	Contains []string `json:"contains"`
	// Avoid lists what the reply must not say ("unavailable": nothing failed).
	Avoid []string `json:"avoid,omitempty"`
	// Language is the reply's language when it is not the session's (a
	// language switch, a visitor speaking another language).
	Language nadine.Language `json:"language,omitempty"`
}

// offlineResult is one turn's outcome.
type offlineResult struct {
	Language    nadine.Language `json:"language"`
	Interaction string          `json:"interaction"`
	Category    string          `json:"category"`
	Say         string          `json:"say"`
	Reply       string          `json:"reply"`
	Intent      string          `json:"intent"`
	Want        string          `json:"want,omitempty"`
	Problems    []string        `json:"problems,omitempty"`
}

// offlineReport is the whole eval.
type offlineReport struct {
	Results []offlineResult `json:"results"`
	// Repeats counts non-fact replies said twice in one interaction.
	Repeats int `json:"repeats"`
}

// runEvalOffline runs the test sets through a real dialogue manager; a sealed
// set's utterances and replies are never printed, not even with -v or --json.
func runEvalOffline(ctx context.Context, e env, set string, asJSON, verbose bool) error {
	all, err := offlineSets(offlineEvalFS)
	if err != nil {
		return err
	}
	var sets []offlineSet
	for _, s := range all {
		if set == "" || set == "all" || set == s.name {
			sets = append(sets, s)
		}
	}
	if len(sets) == 0 {
		return usageError{fmt.Sprintf("eval offline: --set %q: all, %s", set, offlineSetNames(all))}
	}
	reports := map[string]offlineReport{}
	var missed []string
	for i, s := range sets {
		files, err := loadOfflineEval(offlineEvalFS, s.dir)
		if err != nil {
			return err
		}
		rep, err := evalOffline(ctx, files)
		if err != nil {
			return err
		}
		if s.sealed {
			rep = rep.withoutText()
		}
		reports[s.name] = rep
		if !asJSON {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			fmt.Fprintf(e.stdout, "== %s set (target %.0f%% in each language)\n", s.name, 100*s.target)
			if err := rep.print(e.stdout, verbose && !s.sealed); err != nil {
				return err
			}
			if s.sealed || verbose {
				if err := rep.printConfusion(e.stdout); err != nil {
					return err
				}
			}
		}
		if err := rep.check(s.target); err != nil {
			missed = append(missed, s.name+": "+err.Error())
		}
	}
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(reports); err != nil {
			return err
		}
	}
	if len(missed) > 0 {
		return fmt.Errorf("eval: offline target missed: %s", strings.Join(missed, "; "))
	}
	return nil
}

// loadOfflineEval reads the test set in dir.
func loadOfflineEval(fsys fs.FS, dir string) ([]offlineEvalSet, error) {
	files, err := fs.Glob(fsys, dir+"/*.json")
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("eval: offline test set missing: %v", err)
	}
	var sets []offlineEvalSet
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("eval: %s: %w", f, err)
		}
		var s offlineEvalSet
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("eval: %s: %w", path.Base(f), err)
		}
		if !s.Language.Valid() {
			return nil, fmt.Errorf("eval: %s: language %q", path.Base(f), s.Language)
		}
		sets = append(sets, s)
	}
	sort.Slice(sets, func(i, j int) bool { return langOrder(sets[i].Language) < langOrder(sets[j].Language) })
	return sets, nil
}

func langOrder(l nadine.Language) int {
	for i, x := range nadine.Languages() {
		if x == l {
			return i
		}
	}
	return len(nadine.Languages())
}

// evalOffline runs every interaction of every set.
func evalOffline(ctx context.Context, sets []offlineEvalSet) (offlineReport, error) {
	var rep offlineReport
	for _, set := range sets {
		if err := evalOfflineSet(ctx, set, &rep); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// evalOfflineSet runs one language on one fresh app, with the built-in base
// and songs in every language but Chinese, so a language without is tested.
func evalOfflineSet(ctx context.Context, set offlineEvalSet, rep *offlineReport) error {
	dir, err := os.MkdirTemp("", "nadine-eval-offline-")
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	defer os.RemoveAll(dir)
	noEnv := func(string) string { return "" }
	cfg := config.Default(noEnv)
	cfg.DataDir, cfg.Engine, cfg.Embeddings.Provider = dir, "offline", "lexical"
	cfg.Tools.SongsDir = filepath.Join(dir, "songs")
	if err := writeEvalSongs(cfg.Tools.SongsDir); err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	a, err := newApp(ctx, cfg, noEnv, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer a.Close()
	engines := a.robots[0].engines
	for i, in := range set.Interactions {
		n := 0
		m, err := dialogue.NewManager(dialogue.ManagerOptions{
			Engines: engines, History: a.history, Profiles: a.store, Detector: a.detector,
			Language: set.Language, Logger: a.log, Forget: a.forgetID,
			NewID: func() string { n++; return fmt.Sprintf("eval-%s-%d-%d", set.Language, i, n) },
		})
		if err != nil {
			return err
		}
		said := map[string]bool{}
		for _, turn := range in.Turns {
			session := m.Language()
			r, err := m.ProcessInput(ctx, nadine.Turn{Text: turn.Say})
			res := offlineResult{Language: set.Language, Interaction: in.Name, Category: turn.Category, Say: turn.Say, Want: turn.Intent}
			if err != nil {
				res.Problems = append(res.Problems, "error: "+err.Error())
				rep.Results = append(rep.Results, res)
				continue
			}
			res.Reply, res.Intent = r.Text, offlineIntent(r.Trace)
			want := turn.Language.Or(session)
			res.Problems = checkOfflineReply(turn, r, res.Intent, want, a.detector)
			if !isFactIntent(res.Intent) {
				if said[r.Text] {
					res.Problems = append(res.Problems, "repeats an earlier reply of the interaction")
					rep.Repeats++
				}
				said[r.Text] = true
			}
			rep.Results = append(rep.Results, res)
		}
		if _, err := m.EndInteraction(ctx, "eval"); err != nil {
			return err
		}
	}
	return nil
}

// writeEvalSongs writes the eval's song library.
func writeEvalSongs(dir string) error {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	lib := `[{"title": "Twinkle Twinkle Little Star", "language": "en", "file": "en/twinkle.mp3"},
{"title": "Frère Jacques", "language": "fr", "file": "fr/frere-jacques.mp3"},
{"title": "Alle meine Entchen", "language": "de", "file": "de/entchen.mp3"}]`
	if err := os.WriteFile(filepath.Join(dir, "library.json"), []byte(lib), 0o640); err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	return nil
}

// offlineIntent is the trace's outcome, or forget_yes/forget_no: the manager
// answers "shall I forget you?" itself, not an engine.
func offlineIntent(t *nadine.Trace) string {
	if t == nil {
		return ""
	}
	d := t.Snapshot()
	// The manager's reading of the answer comes first: an answer that
	// repeats the request is also the engine's forget_me.
	for _, n := range d.Notes {
		if a, ok := strings.CutPrefix(n, "forget: the answer to the confirmation is "); ok && (a == "yes" || a == "no") {
			return "forget_" + a
		}
	}
	for _, s := range d.Steps {
		if name, ok := strings.CutPrefix(s.Name, "offline:"); ok {
			return name
		}
	}
	return ""
}

// isFactIntent: a fact (the time, a name) may be said again word for word.
func isFactIntent(intent string) bool {
	switch intent {
	case "time", "date", "datetime", "knowledge", "languages", "language", "language_unsupported", "abilities",
		"remember", "name", "offline_why", "forget_me", "forget_yes", "forget_no":
		return true
	}
	return strings.HasPrefix(intent, "persona_")
}

// checkOfflineReply lists what is wrong with a reply.
func checkOfflineReply(turn offlineEvalTurns, r nadine.Reply, intent string, want nadine.Language, det nadine.LanguageDetector) []string {
	var problems []string
	if w := turn.Intent; w != "" && intent != w && !(strings.HasSuffix(w, "*") && strings.HasPrefix(intent, strings.TrimSuffix(w, "*"))) {
		problems = append(problems, fmt.Sprintf("intent %s, want %s", intent, w))
	}
	lower := strings.ToLower(r.Text)
	for _, c := range turn.Contains {
		found := false
		for _, alt := range strings.Split(c, "|") {
			if alt = strings.ToLower(strings.TrimSpace(alt)); alt != "" && strings.Contains(lower, alt) {
				found = true
				break
			}
		}
		if !found {
			problems = append(problems, fmt.Sprintf("does not say %q", c))
		}
	}
	for _, a := range turn.Avoid {
		if strings.Contains(lower, strings.ToLower(a)) {
			problems = append(problems, fmt.Sprintf("says %q", a))
		}
	}
	if r.Language != want {
		problems = append(problems, fmt.Sprintf("tagged %s, want %s", r.Language, want))
	}
	if got, _, ok := det.Detect(r.Text); ok && got != want {
		problems = append(problems, fmt.Sprintf("detected as %s, want %s", got, want))
	}
	if n := offline.SpokenWords(r.Text); n > offline.MaxWords {
		problems = append(problems, fmt.Sprintf("%d words, want at most %d", n, offline.MaxWords))
	}
	if n := len(spoken.SplitSentences(r.Text)); n > 2 {
		problems = append(problems, fmt.Sprintf("%d sentences, want at most 2", n))
	}
	return problems
}

// rate is a pass count over a total.
type rate struct{ passed, total int }

func (r rate) String() string {
	if r.total == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d %.0f%%", r.passed, r.total, 100*float64(r.passed)/float64(r.total))
}

func (r rate) ratio() float64 {
	if r.total == 0 {
		return 0
	}
	return float64(r.passed) / float64(r.total)
}

// rates counts the passes by category and language.
func (rep offlineReport) rates() (byCat map[string]map[nadine.Language]rate, byLang map[nadine.Language]rate, cats []string) {
	byCat = map[string]map[nadine.Language]rate{}
	byLang = map[nadine.Language]rate{}
	for _, r := range rep.Results {
		if byCat[r.Category] == nil {
			byCat[r.Category] = map[nadine.Language]rate{}
			cats = append(cats, r.Category)
		}
		x, y := byCat[r.Category][r.Language], byLang[r.Language]
		x.total++
		y.total++
		if len(r.Problems) == 0 {
			x.passed++
			y.passed++
		}
		byCat[r.Category][r.Language], byLang[r.Language] = x, y
	}
	sort.Strings(cats)
	return byCat, byLang, cats
}

// print writes the table: one row per category, one column per language.
func (rep offlineReport) print(w io.Writer, verbose bool) error {
	byCat, byLang, cats := rep.rates()
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "CATEGORY")
	for _, l := range nadine.Languages() {
		fmt.Fprint(tw, "\t"+strings.ToUpper(string(l)))
	}
	fmt.Fprintln(tw, "\tALL")
	row := func(name string, get func(nadine.Language) rate) {
		fmt.Fprint(tw, name)
		var all rate
		for _, l := range nadine.Languages() {
			r := get(l)
			all.passed += r.passed
			all.total += r.total
			fmt.Fprint(tw, "\t"+r.String())
		}
		fmt.Fprintln(tw, "\t"+all.String())
	}
	for _, c := range cats {
		row(c, func(l nadine.Language) rate { return byCat[c][l] })
	}
	row("all", func(l nadine.Language) rate { return byLang[l] })
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "verbatim repeats of a non-fact reply within an interaction: %d\n", rep.Repeats)
	if verbose {
		for _, r := range rep.Results {
			if len(r.Problems) > 0 {
				fmt.Fprintf(w, "FAIL %s %s/%s: %q → [%s] %q: %s\n", r.Language, r.Interaction, r.Category, r.Say,
					r.Intent, r.Reply, strings.Join(r.Problems, "; "))
			}
		}
	}
	return nil
}

// check fails when a language is below the target or a reply repeats.
func (rep offlineReport) check(target float64) error {
	_, byLang, _ := rep.rates()
	var missed []string
	for _, l := range nadine.Languages() {
		if r := byLang[l]; r.total > 0 && r.ratio() < target {
			missed = append(missed, fmt.Sprintf("%s %s", l, r))
		}
	}
	if rep.Repeats > 0 {
		missed = append(missed, strconv.Itoa(rep.Repeats)+" repeats")
	}
	if len(missed) > 0 {
		return fmt.Errorf("%.0f%% per language, no repeat: %s", 100*target, strings.Join(missed, ", "))
	}
	return nil
}

// withoutText keeps only a sealed set's scores and intents, so it stays sealed.
func (rep offlineReport) withoutText() offlineReport {
	out := offlineReport{Repeats: rep.Repeats}
	for _, r := range rep.Results {
		r.Say, r.Reply, r.Interaction = "", "", ""
		out.Results = append(out.Results, r)
	}
	return out
}

// confusion counts, in one language, the intents given for each one wanted.
func (rep offlineReport) confusion(lang nadine.Language) intents.Confusion {
	c := intents.Confusion{}
	for _, r := range rep.Results {
		if r.Language == lang && r.Want != "" {
			c.Add(r.Want, r.Intent)
		}
	}
	return c
}

// printConfusion writes each intent wanted, how often given, and what else.
func (rep offlineReport) printConfusion(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, l := range nadine.Languages() {
		c := rep.confusion(l)
		if len(c) == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s INTENT\tRIGHT\tTAKEN FOR\n", strings.ToUpper(string(l)))
		wants := make([]string, 0, len(c))
		for want := range c {
			wants = append(wants, want)
		}
		sort.Strings(wants)
		for _, want := range wants {
			row, total := c[want], 0
			var other []string
			for got, n := range row {
				total += n
				if got != want {
					other = append(other, fmt.Sprintf("%s ×%d", orDash(got), n))
				}
			}
			sort.Strings(other)
			fmt.Fprintf(tw, "%s\t%d/%d\t%s\n", want, row[want], total, strings.Join(other, ", "))
		}
	}
	return tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
