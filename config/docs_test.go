package config

import (
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// configDoc is the page that holds the configuration table.
const configDoc = "../docs/configuration.md"

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
	cfg := Default(envMap(map[string]string{"XDG_DATA_HOME": "$XDG_DATA_HOME", "HOME": "~"}))
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
