package main

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
)

// configDoc is the page that holds the configuration table.
const configDoc = "../../docs/configuration.md"

// configRow is one row of the configuration table in docs/configuration.md.
type configRow struct {
	fields   []string // full YAML paths; NAME and ROLE stand for map keys
	defaults string
	meaning  string
}

// configTable reads the rows of the configuration table.
func configTable(t *testing.T) []configRow {
	t.Helper()
	b, err := os.ReadFile(configDoc)
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "| field | default | meaning |\n|---|---|---|\n")
	if !ok {
		t.Fatal("docs/configuration.md has no configuration table")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	var rows []configRow
	for _, line := range strings.Split(table, "\n") {
		line = strings.ReplaceAll(line, `\|`, "\x00") // escaped pipes inside cells
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 3 {
			t.Fatalf("docs/configuration.md row %q: want 3 cells", line)
		}
		var r configRow
		parent := ""
		for _, f := range strings.Split(cells[0], ", ") {
			f = strings.Trim(f, "`")
			if strings.HasPrefix(f, ".") {
				f = parent + f
			}
			if i := strings.LastIndex(f, "."); i > 0 {
				parent = f[:i]
			}
			r.fields = append(r.fields, f)
		}
		r.defaults = strings.ReplaceAll(cells[1], "\x00", "|")
		r.meaning = strings.ReplaceAll(cells[2], "\x00", "|")
		rows = append(rows, r)
	}
	return rows
}

// cellValue is the value a default cell part states: the first
// backticked word, "" for "none", else its first word.
func cellValue(part string) string {
	part = strings.TrimSpace(part)
	switch {
	case strings.HasPrefix(part, "`"):
		v, _, _ := strings.Cut(strings.TrimPrefix(part, "`"), "`")
		return v
	case strings.HasPrefix(part, "none"), part == "-":
		return ""
	}
	v, _, _ := strings.Cut(part, " ")
	return v
}

// sameValue compares a stated value with a field's default.
func sameValue(t *testing.T, field string, v reflect.Value, stated string) {
	t.Helper()
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			v = reflect.Zero(v.Type().Elem())
			continue
		}
		v = v.Elem()
	}
	got := ""
	switch {
	case v.Type() == durationType:
		if stated != "" {
			d, err := parseDuration(stated)
			if err != nil {
				t.Errorf("docs/configuration.md: %s: default %q is not a duration", field, stated)
				return
			}
			stated = time.Duration(d).String()
		}
		got = time.Duration(v.Int()).String()
		if v.Int() == 0 && stated == "" {
			got = ""
		}
	case v.Kind() == reflect.Map || v.Kind() == reflect.Slice:
		if v.Len() > 0 || stated != "" {
			t.Errorf("docs/configuration.md: %s: default %q, but the code's is %v", field, stated, v.Interface())
		}
		return
	case v.Kind() == reflect.Bool:
		got = strconv.FormatBool(v.Bool())
	case v.Kind() == reflect.Int:
		got = strconv.FormatInt(v.Int(), 10)
		if stated == "" {
			stated = "0"
		}
	case v.Kind() == reflect.Float64:
		got = strconv.FormatFloat(v.Float(), 'g', -1, 64)
		if stated == "" {
			stated = "0"
		}
	default:
		got = v.String()
	}
	if got != stated {
		t.Errorf("docs/configuration.md: %s: default %q, nadine config says %q", field, stated, got)
	}
}

// TestConfigDocTable: the configuration table of docs/configuration.md
// names every field, and each default it states is the one `nadine config` prints.
func TestConfigDocTable(t *testing.T) {
	// The data directory's default names the variables it comes from.
	cfg := defaultConfig(envMap(map[string]string{"XDG_DATA_HOME": "$XDG_DATA_HOME", "HOME": "~"}))
	covered := map[string]bool{}
	for _, row := range configTable(t) {
		if len(row.fields) == 1 && strings.ContainsAny(row.fields[0], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			checkPlaceholderRow(t, cfg, row, covered)
			continue
		}
		parts := strings.SplitN(row.defaults, ", ", len(row.fields))
		if len(parts) != len(row.fields) {
			t.Errorf("docs/configuration.md: %v: %d defaults for %d fields", row.fields, len(parts), len(row.fields))
			continue
		}
		for i, f := range row.fields {
			covered[f] = true
			v := valueAt(t, cfg, f)
			if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Struct {
				// A list of blocks (mqtt.broker_users): empty by default.
				if cellValue(parts[i]) != "" || v.Len() != 0 {
					t.Errorf("docs/configuration.md: %s: default %q, nadine config has %d entries", f, parts[i], v.Len())
				}
				continue
			}
			sameValue(t, f, v, cellValue(parts[i]))
		}
	}
	for _, p := range configPaths(reflect.TypeOf(Config{}), "") {
		list, _, _ := strings.Cut(p, "[*]")
		if !covered[p] && !covered[strings.TrimSuffix(p, ".*")] && !covered[list] {
			t.Errorf("docs/configuration.md: the configuration table has no row for %s", p)
		}
	}
}

// valueAt is the value of a field fieldsAt skips (a nil pointer).
func valueAt(t *testing.T, cfg Config, path string) reflect.Value {
	v := reflect.ValueOf(cfg)
	for _, seg := range strings.Split(path, ".") {
		for v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		found := false
		for i := 0; i < v.NumField(); i++ {
			if yamlName(v.Type().Field(i)) == seg {
				v, found = v.Field(i), true
				break
			}
		}
		if !found {
			t.Fatalf("docs/configuration.md: no field %s", path)
		}
	}
	return v
}

// checkPlaceholderRow checks a row about map entries: profiles (the
// default profile's fields stated as "`field` (`value`" in the meaning)
// and roles (every role on the stated profile).
func checkPlaceholderRow(t *testing.T, cfg Config, row configRow, covered map[string]bool) {
	field := row.fields[0]
	switch field {
	case "models.profiles.NAME":
		for _, p := range configPaths(reflect.TypeOf(Config{}), "") {
			if strings.HasPrefix(p, "models.profiles.*.") {
				covered[p] = true
			}
		}
		def := cfg.Models.Profiles["default"]
		stated := regexp.MustCompile("`(\\w+)` \\(`([^`]*)`").FindAllStringSubmatch(row.meaning, -1)
		if len(stated) < 3 {
			t.Errorf("docs/configuration.md: %s states %d defaults", field, len(stated))
		}
		for _, m := range stated {
			v := profileField(def, m[1])
			if !v.IsValid() {
				t.Errorf("docs/configuration.md: %s: no profile field %s", field, m[1])
				continue
			}
			sameValue(t, "models.profiles.default."+m[1], v, m[2])
		}
		if !strings.Contains(row.defaults, "`"+def.Model+"`") {
			t.Errorf("docs/configuration.md: %s: the default profile's model is %s", field, def.Model)
		}
	case "models.roles.ROLE":
		covered["models.roles"] = true
		want := cellValue(row.defaults)
		for _, r := range roleNames {
			if cfg.Models.Roles[r] != want || !strings.Contains(row.meaning, "`"+r+"`") {
				t.Errorf("docs/configuration.md: role %s: listed %v, default %q, want %q", r, strings.Contains(row.meaning, "`"+r+"`"), cfg.Models.Roles[r], want)
			}
		}
	case "models.timeouts.ROLE":
		// "3s for `a`, `b`; 4s `c`": each role after the duration that
		// precedes it, and the first-token default where it is stated.
		covered["models.timeouts.*.attempt"], covered["models.timeouts.*.first_token"] = true, true
		stated := map[string]string{}
		last := ""
		for _, m := range regexp.MustCompile("(\\d+s)\\b|`(\\w+)`").FindAllStringSubmatch(row.defaults, -1) {
			if m[1] != "" {
				last = m[1]
			} else if last != "" {
				stated[m[2]] = last
			}
		}
		for r, want := range cfg.Models.Timeouts {
			if got := stated[r]; got != time.Duration(want.Attempt).String() {
				t.Errorf("docs/configuration.md: models.timeouts.%s.attempt: default %q, nadine config says %s", r, got, time.Duration(want.Attempt))
			}
			if ft := time.Duration(want.FirstToken); ft > 0 && !strings.Contains(row.defaults, "`.first_token`: "+ft.String()) {
				t.Errorf("docs/configuration.md: models.timeouts.%s.first_token: the row does not state %s", r, ft)
			}
		}
	default:
		t.Errorf("docs/configuration.md: unknown placeholder row %s", field)
	}
}

// profileField is a ProfileConfig field by its YAML name.
func profileField(p ProfileConfig, name string) reflect.Value {
	v := reflect.ValueOf(p)
	for i := 0; i < v.NumField(); i++ {
		if yamlName(v.Type().Field(i)) == name {
			return v.Field(i)
		}
	}
	return reflect.Value{}
}

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
