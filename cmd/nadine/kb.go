package main

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nadine-robot/nadine"

	"github.com/nadine-robot/nadine/config"
	"github.com/nadine-robot/nadine/knowledge"
)

// runKB manages the knowledge base; rebuild follows a change of embedder.
func runKB(ctx context.Context, args []string, e env) error {
	fs, path := flags("kb", e)
	k := fs.Int("k", 3, "search: results to show")
	replace := fs.Bool("replace", false, "ingest: clear the whole knowledge base first (built-in documents included)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	usage := usageError{"usage: nadine kb ingest DIR [--replace] | kb sources | kb search QUESTION | kb remove SOURCE... | kb rebuild"}
	if len(rest) == 0 {
		return usage
	}
	switch rest[0] {
	case "ingest":
		if len(rest) != 2 {
			return usage
		}
	case "search", "remove":
		if len(rest) < 2 {
			return usage
		}
	case "sources", "rebuild":
		if len(rest) != 1 {
			return usage
		}
	default:
		return usageError{fmt.Sprintf("unknown kb command %q%s; %s", rest[0], config.DidYouMean(rest[0], []string{"ingest", "sources", "search", "remove", "rebuild"}), usage.msg)}
	}
	a, err := openTool(ctx, *path, e)
	if err != nil {
		return err
	}
	defer a.Close()
	switch rest[0] {
	case "ingest":
		return a.kbIngest(ctx, e, rest[1], *replace)
	case "sources":
		return a.kbSources(ctx, e)
	case "remove":
		return a.kbRemove(ctx, e, rest[1:])
	case "rebuild":
		r, err := a.rebuildKnowledge(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "rebuilt the knowledge base: %d sources, %d chunks embedded by %s\n", r.Files, r.Chunks, a.embedder.Name())
		return nil
	}
	res, err := knowledge.Retrieve(ctx, a.store, a.embedder, strings.Join(rest[1:], " "), *k)
	if err != nil {
		return err
	}
	for _, r := range res {
		fmt.Fprintf(e.stdout, "%.3f  %s — %s\n       %s\n", r.Score, r.Source, r.Title, oneLine(r.Text, 160))
	}
	return nil
}

// kbIngest says what changed; an error that stopped it comes without a count,
// unreadable files after the count of what was stored.
func (a *app) kbIngest(ctx context.Context, e env, dir string, replace bool) error {
	if replace {
		if err := a.store.ClearKnowledge(ctx); err != nil {
			return err
		}
	}
	r, err := a.ingester().Run(ctx, dir)
	if r.Files == 0 && err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "ingested %d chunks from %s: %d files, %d new, %d changed, %d unchanged\n",
		r.Chunks, dir, r.Files, r.New, r.Changed, r.Unchanged)
	if err != nil {
		return fmt.Errorf("some files were not ingested:\n%w", err)
	}
	return nil
}

// kbSources lists the recorded sources.
func (a *app) kbSources(ctx context.Context, e env) error {
	srcs, err := a.store.KnowledgeSources(ctx)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "SOURCE\tKIND\tCHUNKS\tEMBEDDER\tINGESTED\tHASH")
	for _, s := range srcs {
		kind := "file"
		if s.Builtin {
			kind = "built-in"
		}
		when, hash := "-", "-"
		if !s.Ingested.IsZero() {
			when = s.Ingested.Local().Format(time.DateTime)
		}
		if h := strings.TrimPrefix(s.Hash, "sha256:"); h != "" {
			hash = h[:min(12, len(h))]
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\t%s\n", s.Key, kind, s.Chunks, s.Embedder, when, hash)
	}
	return w.Flush()
}

// kbRemove removes documents by key (kb sources) or by path in their folder;
// a name must match one document.
func (a *app) kbRemove(ctx context.Context, e env, names []string) error {
	srcs, err := a.store.KnowledgeSources(ctx)
	if err != nil {
		return err
	}
	var keys []string
	for _, n := range names {
		var match []string
		for _, s := range srcs {
			if s.Key == n {
				match = []string{s.Key}
				break
			}
			if s.Name == n || s.Name == filepath.ToSlash(n) {
				match = append(match, s.Key)
			}
		}
		switch len(match) {
		case 0:
			return nadine.Errorf(nadine.ENOTFOUND, "kb remove: no document %q in the knowledge base (kb sources lists them)", n)
		case 1:
			keys = append(keys, match[0])
		default:
			return nadine.Errorf(nadine.EINVALID, "kb remove: %q names %d documents; give one of their keys: %s", n, len(match), strings.Join(match, ", "))
		}
	}
	removed, err := a.store.RemoveKnowledge(ctx, keys...)
	if err != nil {
		return err
	}
	for _, k := range keys {
		fmt.Fprintf(e.stdout, "removed %s\n", k)
	}
	if removed != len(keys) {
		fmt.Fprintf(e.stdout, "(%d of them were already gone)\n", len(keys)-removed)
	}
	return nil
}

// rebuildKnowledge re-embeds every document as given (the built-in ones from
// this binary), then knowledge.dir's new and changed files.
func (a *app) rebuildKnowledge(ctx context.Context) (knowledge.Report, error) {
	var builtin fs.FS
	if a.cfg.Knowledge.Dir == "" {
		builtin = knowledge.Default()
	} else if srcs, err := a.store.KnowledgeSources(ctx); err == nil {
		for _, s := range srcs {
			if s.Builtin {
				builtin = knowledge.Default()
			}
		}
	}
	in := a.ingester()
	r, err := in.Rebuild(ctx, builtin, knowledge.DefaultRoot)
	if err != nil || a.cfg.Knowledge.Dir == "" {
		return r, err
	}
	d, err := in.Run(ctx, a.cfg.Knowledge.Dir)
	r.Files += d.New
	r.Chunks += d.Chunks
	return r, err
}

// oneLine shortens text to n runes on one line.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
