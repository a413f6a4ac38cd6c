package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/nadine-robot/nadine"
)

// runMemory inspects and erases per-user memory.
func runMemory(ctx context.Context, args []string, e env) error {
	fs, path := flags("memory", e)
	asJSON := fs.Bool("json", false, "print JSON")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usageError{"usage: nadine memory users | show USER | forget USER | reembed"}
	}
	a, err := openTool(ctx, *path, e)
	if err != nil {
		return err
	}
	defer a.Close()
	switch rest[0] {
	case "users":
		users, err := nadine.People(ctx, a.store)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(e.stdout).Encode(users)
		}
		w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "USER ID\tNAME")
		for _, u := range users {
			fmt.Fprintf(w, "%s\t%s\n", u.ID, u.Name)
		}
		return w.Flush()
	case "show":
		if len(rest) != 2 {
			return usageError{"usage: nadine memory show USER"}
		}
		u, err := nadine.ResolvePerson(ctx, a.store, rest[1])
		if err != nil {
			return err
		}
		id := u.ID
		p, err := a.store.Profile(ctx, id)
		if err != nil && nadine.ErrorCode(err) != nadine.ENOTFOUND {
			return err
		}
		mems, err := a.store.Memories(ctx, id)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(e.stdout).Encode(map[string]any{"profile": p, "memories": mems})
		}
		name := p.UserName
		if name == "" {
			name = u.Name
		}
		fmt.Fprintf(e.stdout, "%s (%s)\n", name, id)
		for _, f := range [][2]string{{"company", p.CurrentCompany}, {"position", p.CurrentPosition}, {"location", p.Location},
			{"hobbies", strings.Join(p.Hobbies, ", ")}, {"interests", strings.Join(p.Interests, ", ")}} {
			if f[1] != "" {
				fmt.Fprintf(e.stdout, "  %s: %s\n", f[0], f[1])
			}
		}
		fmt.Fprintf(e.stdout, "%d memories\n", len(mems))
		for _, m := range mems {
			fmt.Fprintf(e.stdout, "--- #%d %s %s\n%s\n", m.ID, m.Type, m.Time.Format("2006-01-02 15:04"), m.Text)
		}
		return nil
	case "forget":
		if len(rest) != 2 {
			return usageError{"usage: nadine memory forget USER"}
		}
		u, err := a.forgetter().Forget(ctx, rest[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "forgot %s: profile, name, history, memories, episodes, scenes and saved state erased\n", u.ID)
		return nil
	case "reembed":
		n, err := reembed(ctx, a)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "re-embedded %d memories with %s\n", n, a.embedder.Name())
		return nil
	}
	return usageError{fmt.Sprintf("unknown memory command %q", rest[0])}
}

// reembed re-embeds every memory whose vector was made by another embedder.
func reembed(ctx context.Context, a *app) (int, error) {
	// Every id with data, plain names used as ids included.
	ids, err := a.store.UserIDs(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		u := nadine.UserRef{ID: id}
		mems, err := a.store.Memories(ctx, u.ID)
		if err != nil {
			return n, err
		}
		for _, m := range mems {
			if m.Embedder == a.embedder.Name() {
				continue
			}
			v, err := nadine.EmbedOne(ctx, a.embedder, m.Text)
			if err != nil {
				return n, fmt.Errorf("reembed memory %d of %s: %w", m.ID, u.ID, err)
			}
			if err := a.store.UpdateMemoryEmbedding(ctx, u.ID, m.ID, a.embedder.Name(), v); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}
