package config

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A default that a package of the module owns (an exported Default*
// constant) is referenced by the configuration, never copied: a copy drifts
// when the package changes its own. TestDefaultsReferenced finds copies in
// the production files of this package and of the commands: a literal
// given to a field or constant whose name matches a Default* constant's
// (MaxInputChars ↔
// dialogue.DefaultMaxInputChars, defaultTurnTimeout ↔
// dialogue.DefaultTurnTimeout), with the same value, or an address or URL
// equal to one (127.0.0.1:1883 ↔ mqtt.DefaultBrokerAddr).

// ownedDefault is one exported Default* constant and its value.
type ownedDefault struct {
	name  string // package.DefaultX
	value constValue
}

// constValue is a constant's value: a number (durations in nanoseconds),
// or a string.
type constValue struct {
	num   float64
	str   string
	isStr bool
}

// evalConst evaluates the constant expressions defaults are written with:
// literals, time units, products, shifts, conversions (Duration(…)) and
// the package's own constants (local). ok is false for anything else.
func evalConst(e ast.Expr, local map[string]constValue) (constValue, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		switch e.Kind {
		case token.INT, token.FLOAT:
			f, err := strconv.ParseFloat(strings.ReplaceAll(e.Value, "_", ""), 64)
			if err != nil {
				if i, err := strconv.ParseInt(strings.ReplaceAll(e.Value, "_", ""), 0, 64); err == nil {
					return constValue{num: float64(i)}, true
				}
				return constValue{}, false
			}
			return constValue{num: f}, true
		case token.STRING:
			s, err := strconv.Unquote(e.Value)
			return constValue{str: s, isStr: true}, err == nil
		}
	case *ast.ParenExpr:
		return evalConst(e.X, local)
	case *ast.Ident:
		v, ok := local[e.Name]
		return v, ok
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok && x.Name == "time" {
			units := map[string]time.Duration{"Nanosecond": time.Nanosecond, "Microsecond": time.Microsecond,
				"Millisecond": time.Millisecond, "Second": time.Second, "Minute": time.Minute, "Hour": time.Hour}
			if d, ok := units[e.Sel.Name]; ok {
				return constValue{num: float64(d)}, true
			}
		}
	case *ast.CallExpr: // a conversion: Duration(10 * time.Second), float64(3)
		if len(e.Args) == 1 {
			return evalConst(e.Args[0], local)
		}
	case *ast.UnaryExpr:
		if v, ok := evalConst(e.X, local); ok && !v.isStr && e.Op == token.SUB {
			return constValue{num: -v.num}, true
		}
	case *ast.BinaryExpr:
		x, ok1 := evalConst(e.X, local)
		y, ok2 := evalConst(e.Y, local)
		if !ok1 || !ok2 || x.isStr || y.isStr {
			return constValue{}, false
		}
		switch e.Op {
		case token.MUL:
			return constValue{num: x.num * y.num}, true
		case token.SHL:
			return constValue{num: x.num * float64(int64(1)<<int64(y.num))}, true
		case token.ADD:
			return constValue{num: x.num + y.num}, true
		}
	}
	return constValue{}, false
}

// ownedDefaults reads the exported Default* constants of a package's
// production files in dir.
func ownedDefaults(t *testing.T, dir, pkg string) []ownedDefault {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	local := map[string]constValue{}
	var names []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					if v, ok := evalConst(vs.Values[i], local); ok {
						local[n.Name] = v
						if strings.HasPrefix(n.Name, "Default") && ast.IsExported(n.Name) {
							names = append(names, n.Name)
						}
					}
				}
			}
		}
	}
	var out []ownedDefault
	for _, n := range names {
		out = append(out, ownedDefault{name: pkg + "." + n, value: local[n]})
	}
	return out
}

// defaultCopy is a literal in the command equal to an owned default.
type defaultCopy struct {
	pos, name, owner string
}

// sameName reports whether a field or constant named field is the one a
// Default* constant gives the default of: one name ends with the other,
// once "default" is taken off (Window ↔ DefaultHistoryWindow).
func sameName(field, owned string) bool {
	f := strings.TrimPrefix(strings.ToLower(field), "default")
	o := strings.TrimPrefix(strings.ToLower(owned[strings.LastIndex(owned, ".")+1:]), "default")
	return f != "" && o != "" && (strings.HasSuffix(f, o) || strings.HasSuffix(o, f))
}

// isAddress reports whether s is an address or a URL (host:port, scheme://).
func isAddress(s string) bool { return strings.Contains(s, ":") }

// findDefaultCopies reports the literals of file (source, or read from
// path when src is nil) that copy one of owned: fields of composite
// literals and constants or variables, by name and value, and addresses
// by value alone.
func findDefaultCopies(path string, src any, owned []ownedDefault) ([]defaultCopy, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		return nil, err
	}
	var out []defaultCopy
	check := func(name string, e ast.Expr) {
		v, ok := evalConst(e, nil)
		if !ok {
			return
		}
		for _, o := range owned {
			if o.value != v {
				continue
			}
			if (name != "" && sameName(name, o.name)) || (v.isStr && isAddress(v.str)) {
				out = append(out, defaultCopy{pos: fset.Position(e.Pos()).String(), name: name, owner: o.name})
			}
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.KeyValueExpr:
			if k, ok := n.Key.(*ast.Ident); ok {
				check(k.Name, n.Value)
			} else {
				check("", n.Value)
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if i < len(n.Values) {
					check(id.Name, n.Values[i])
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if sel, ok := l.(*ast.SelectorExpr); ok && i < len(n.Rhs) {
					check(sel.Sel.Name, n.Rhs[i])
				}
			}
		}
		return true
	})
	return out, nil
}

// scannedFiles are the production files that must reference defaults: the
// configuration's (this package) and the commands' (cmd/...).
func scannedFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{"*.go", filepath.Join("..", "cmd", "*", "*.go")} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			if !strings.HasSuffix(f, "_test.go") {
				files = append(files, f)
			}
		}
	}
	if len(files) < 20 {
		t.Fatalf("found %d production files in config and cmd; the glob is broken", len(files))
	}
	return files
}

// moduleDefaults reads the Default* constants of every package of the
// module that the configuration's or the commands' production files import.
func moduleDefaults(t *testing.T) []ownedDefault {
	t.Helper()
	files := scannedFiles(t)
	seen := map[string]bool{}
	var owned []ownedDefault
	for _, f := range files {
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range file.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			rel, ok := strings.CutPrefix(p, "github.com/nadine-robot/nadine")
			if !ok || seen[p] {
				continue
			}
			seen[p] = true
			dir := filepath.Join("..", filepath.FromSlash(strings.TrimPrefix(rel, "/")))
			owned = append(owned, ownedDefaults(t, dir, filepath.Base(p))...)
		}
	}
	return owned
}

func TestDefaultsReferenced(t *testing.T) {
	owned := moduleDefaults(t)
	if len(owned) < 20 {
		t.Fatalf("found %d Default* constants in the imported packages; the reader is broken", len(owned))
	}
	for _, f := range scannedFiles(t) {
		copies, err := findDefaultCopies(f, nil, owned)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range copies {
			t.Errorf("%s: %s copies %s; reference the constant", c.pos, c.name, c.owner)
		}
	}
}

// TestDefaultCopiesFound: the check finds each way a default can be copied
// back, and leaves what is not a copy alone.
func TestDefaultCopiesFound(t *testing.T) {
	owned := moduleDefaults(t)
	tests := []struct {
		src  string
		want []string // owners of the copies found
	}{
		{`var c = LimitsConfig{MaxInputChars: 4000}`, []string{"dialogue.DefaultMaxInputChars"}},
		{`var c = LimitsConfig{TurnTimeout: Duration(10 * time.Second)}`, []string{"dialogue.DefaultTurnTimeout"}},
		{`const defaultFirstSpeech = 2 * time.Second`, []string{"dialogue.DefaultFirstSpeech"}},
		{`var c = MemoryConfig{Window: 20}`, []string{"dialogue.DefaultHistoryWindow"}},
		{`var c = MQTTConfig{Listen: "127.0.0.1:1883"}`, []string{"mqtt.DefaultBrokerAddr"}},
		{`func f(c *HTTPConfig) { c.Addr = "127.0.0.1:8080" }`, []string{"web.DefaultAddr"}},
		{`var c = HTTPConfig{MaxStreams: 1 << 6}`, []string{"web.DefaultMaxStreams"}},
		{`var c = LimitsConfig{MaxInputChars: dialogue.DefaultMaxInputChars}`, nil},
		{`var c = LimitsConfig{MaxInputChars: 5000}`, nil},
		{`var c = LimitsConfig{ParseRetries: 3}`, nil},
	}
	for _, tt := range tests {
		got, err := findDefaultCopies("x.go", "package main\n"+tt.src+"\n", owned)
		if err != nil {
			t.Fatal(err)
		}
		var owners []string
		for _, c := range got {
			owners = append(owners, c.owner)
		}
		if fmt.Sprint(owners) != fmt.Sprint(tt.want) {
			t.Errorf("%s: copies of %v, want %v", tt.src, owners, tt.want)
		}
	}
}
