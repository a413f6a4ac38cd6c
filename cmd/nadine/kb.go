package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/nadine-robot/nadine/knowledge"
)

// runKB manages the knowledge base.
func runKB(ctx context.Context, args []string, e env) error {
	fs, path := flags("kb", e)
	k := fs.Int("k", 3, "results to show")
	replace := fs.Bool("replace", false, "ingest: clear the knowledge base first")
	if err := fs.Parse(args); err != nil {
		return err
	}
	rest := fs.Args()
	if len(rest) < 2 && !(len(rest) == 1 && rest[0] == "rebuild") {
		return usageError{"usage: nadine kb ingest DIR | kb search QUESTION | kb rebuild"}
	}
	a, err := openTool(ctx, *path, e)
	if err != nil {
		return err
	}
	defer a.Close()
	switch rest[0] {
	case "ingest":
		if *replace {
			if err := a.store.ClearKnowledge(ctx); err != nil {
				return err
			}
		}
		n, err := knowledge.Ingest(ctx, a.store, a.embedder, rest[1])
		fmt.Fprintf(e.stdout, "ingested %d chunks from %s\n", n, rest[1])
		if err == nil {
			err = a.ingestOfflineCopy(ctx, rest[1])
		}
		return err
	case "rebuild":
		n, err := a.rebuildKnowledge(ctx)
		fmt.Fprintf(e.stdout, "rebuilt the knowledge base: %d chunks embedded by %s\n", n, a.embedder.Name())
		return err
	case "search":
		res, err := knowledge.Retrieve(ctx, a.store, a.embedder, strings.Join(rest[1:], " "), *k)
		if err != nil {
			return err
		}
		for _, r := range res {
			fmt.Fprintf(e.stdout, "%.3f  %s — %s\n       %s\n", r.Score, r.Source, r.Title, oneLine(r.Text, 160))
		}
		return nil
	}
	return usageError{fmt.Sprintf("unknown kb command %q", rest[0])}
}

// oneLine shortens text to n runes on one line.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
