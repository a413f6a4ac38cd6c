package agents

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"strings"
	"text/template"
)

//go:embed prompts/*.tmpl
var promptFS embed.FS

// prompts holds the parsed templates, by file name without ".tmpl".
type prompts map[string]*template.Template

// loadPrompts parses every embedded template.
func loadPrompts() (prompts, error) {
	names, err := fs.Glob(promptFS, "prompts/*.tmpl")
	if err != nil {
		return nil, fmt.Errorf("agents: list prompts: %w", err)
	}
	p := prompts{}
	for _, n := range names {
		t, err := template.ParseFS(promptFS, n)
		if err != nil {
			return nil, fmt.Errorf("agents: prompt %s: %w", n, err)
		}
		p[strings.TrimSuffix(strings.TrimPrefix(n, "prompts/"), ".tmpl")] = t
	}
	return p, nil
}

// render panics on failure: the templates are embedded and golden-tested, and
// the graph runner turns a node's panic into EINTERNAL.
func (p prompts) render(name string, data any) string {
	t, ok := p[name]
	if !ok {
		panic(fmt.Sprintf("agents: no prompt %q", name))
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		panic(fmt.Sprintf("agents: render %s: %v", name, err))
	}
	return strings.TrimRight(b.String(), "\n")
}
