package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// readmeMaxLines keeps the README a landing page; reference goes to docs/.
const readmeMaxLines = 300

// TestReadmeIsShort: the README stays under readmeMaxLines lines.
func TestReadmeIsShort(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n >= readmeMaxLines {
		t.Errorf("README.md has %d lines, want fewer than %d: move reference to docs/", n, readmeMaxLines)
	}
}

// TestReadmeTestCommandIsCI: the test command the README gives is the one
// CI runs, so a newcomer runs what is checked.
func TestReadmeTestCommandIsCI(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "go test -race ./..."
	if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(cmd) + `\s`).Match(readme) {
		t.Errorf("README.md: no line starts with %q", cmd)
	}
	if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(cmd) + `$`).Match(ci) {
		t.Errorf(".ci/run does not run %q", cmd)
	}
}

// markdownPages are README.md and every page of docs/, relative to the
// repository's root.
func markdownPages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages := []string{"README.md"}
	for _, d := range docs {
		pages = append(pages, filepath.ToSlash(strings.TrimPrefix(d, "../../")))
	}
	return pages
}

var (
	mdLink    = regexp.MustCompile(`\]\(([^()\s]+)\)`)
	mdHeading = regexp.MustCompile(`^(#{1,6}) (.+)$`)
)

// outsideCode is the text of a Markdown page without its fenced blocks
// and code spans, where brackets are not links.
func outsideCode(md string) string {
	var b strings.Builder
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		b.WriteString(regexp.MustCompile("`[^`]*`").ReplaceAllString(line, "``"))
		b.WriteByte('\n')
	}
	return b.String()
}

// headings are a page's headings outside fenced blocks, with their level.
func headings(md string) (levels []int, texts []string) {
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if m := mdHeading.FindStringSubmatch(line); m != nil && !fenced {
			levels = append(levels, len(m[1]))
			texts = append(texts, m[2])
		}
	}
	return levels, texts
}

// anchors are the fragment names GitHub gives a page's headings: lower
// case, punctuation dropped, spaces as hyphens, "-1", "-2" for repeats.
func anchors(md string) map[string]bool {
	_, texts := headings(md)
	out := map[string]bool{}
	for _, h := range texts {
		a := anchorOf(h)
		base := a
		for i := 1; out[a]; i++ {
			a = base + "-" + strconv.Itoa(i)
		}
		out[a] = true
	}
	return out
}

func anchorOf(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestDocLinks: every relative link of README.md and docs/*.md names a
// file of the repository, and a fragment on a Markdown page names one of
// its headings; no link leaves the repository by a relative path.
func TestDocLinks(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range markdownPages(t) {
		b, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(outsideCode(string(b)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := filepath.Join(root, filepath.Dir(page), file)
			if file == "" {
				path = filepath.Join(root, page)
			}
			if rel, err := filepath.Rel(root, path); err != nil || strings.HasPrefix(rel, "..") {
				t.Errorf("%s: link %s points outside the repository", page, target)
				continue
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link %s: no such file", page, target)
				continue
			}
			if frag == "" || !strings.HasSuffix(path, ".md") {
				continue
			}
			md, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !anchors(string(md))[frag] {
				t.Errorf("%s: link %s: no heading gives #%s", page, target, frag)
			}
		}
	}
}

// TestDocContents: a docs page with sections opens with a list of its
// contents that names each section and subsection, in order.
func TestDocContents(t *testing.T) {
	for _, page := range markdownPages(t) {
		if page == "README.md" {
			continue
		}
		b, err := os.ReadFile("../../" + page)
		if err != nil {
			t.Fatal(err)
		}
		md := string(b)
		levels, texts := headings(md)
		var want []string
		seen := map[string]int{}
		for i, h := range texts {
			a := anchorOf(h)
			if n := seen[a]; n > 0 {
				seen[a]++
				a += "-" + strconv.Itoa(n)
			} else {
				seen[a] = 1
			}
			if levels[i] == 2 || levels[i] == 3 {
				want = append(want, strings.Repeat("  ", levels[i]-2)+"- ["+h+"](#"+a+")")
			}
		}
		if len(want) == 0 {
			continue
		}
		_, rest, ok := strings.Cut(md, "\nContents:\n\n")
		if !ok || strings.Index(md, "\nContents:\n") > strings.Index(md, "\n## ") {
			t.Errorf("%s: no list of contents before its first section", page)
			continue
		}
		list, _, _ := strings.Cut(rest, "\n\n")
		if got := strings.Split(list, "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: contents\n%s\nwant\n%s", page, list, strings.Join(want, "\n"))
		}
	}
}
