package nadine_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The import graph the design promises (README, Architecture): dependencies
// point down. Each package of the module is in one layer; a layer imports
// only the layers it names, plus the few packages an entry of
// layerExtras adds. Only the production imports count (a test may import
// an adapter to test against it).
const module = "github.com/nadine-robot/nadine"

// Layers of the module.
const (
	layerRoot    = "root"    // the root package: domain types and interfaces
	layerPure    = "pure"    // pure helpers: no I/O, root types only
	layerEngine  = "engine"  // the engines: react, agents, offline
	layerRuntime = "runtime" // the turn's runtime: the manager, the robot runtime, failover
	layerAdapter = "adapter" // adapters: stores, bus, models, tools, knowledge, scenes, web
	layerSupport = "support" // internal packages of the adapters
	layerTestkit = "testkit" // scripted peers and helpers of the tests
	layerConfig  = "config"  // the configuration: its types, defaults, loading and rules
	layerCmd     = "cmd"     // the commands: wire everything
	layerExample = "example" // examples: clients of the bus only
)

// packageLayers gives the layer of each package, by its path below the
// module ("" is the root package). A prefix ending in "/" covers the
// packages below it. A new package must be added here.
var packageLayers = map[string]string{
	"": layerRoot,

	"affect": layerPure, "answer": layerPure, "fence": layerPure, "graph": layerPure, "labels": layerPure,
	"langid": layerPure, "lexical": layerPure, "names": layerPure, "intents": layerPure, "bargein": layerPure,
	"speakable": layerPure, "turnstats": layerPure, "spoken": layerPure, "redact": layerPure,

	"react": layerEngine, "agents": layerEngine, "offline": layerEngine,

	"dialogue": layerRuntime, "robot": layerRuntime, "failover": layerRuntime,

	"tools": layerAdapter, "knowledge": layerAdapter, "visual": layerAdapter, "openai": layerAdapter,
	"sqlite": layerAdapter, "postgres": layerAdapter, "mqtt": layerAdapter, "translate": layerAdapter,
	"web": layerAdapter, "metrics": layerAdapter, "otelexport": layerAdapter, "modelcache": layerAdapter,

	"embedcache": layerPure, "internal/records": layerSupport, "internal/migrations": layerSupport, "internal/loopback": layerSupport,
	"internal/syncbuf": layerSupport,

	"internal/llmtest": layerTestkit, "internal/mqtttest": layerTestkit, "internal/storetest": layerTestkit,
	"internal/golden": layerTestkit, "internal/orderlog": layerTestkit, "internal/tcpproxy": layerTestkit,
	"internal/leaktest": layerTestkit, "internal/modeltest": layerTestkit, "internal/speechcorpus": layerTestkit, "internal/configtest": layerTestkit,
	"internal/testrun": layerTestkit,

	"config": layerConfig,

	"cmd/":      layerCmd,
	"examples/": layerExample,
}

// layerImports lists the layers each layer may import.
var layerImports = map[string][]string{
	layerRoot:    {},
	layerPure:    {layerRoot, layerPure},
	layerEngine:  {layerRoot, layerPure},
	layerRuntime: {layerRoot, layerPure},
	layerAdapter: {layerRoot, layerPure, layerSupport},
	layerSupport: {layerRoot, layerSupport},
	layerTestkit: {layerRoot, layerPure, layerAdapter, layerSupport, layerTestkit},
	layerConfig:  {layerRoot, layerPure, layerEngine, layerRuntime, layerAdapter, layerSupport},
	layerCmd:     {layerRoot, layerPure, layerEngine, layerRuntime, layerAdapter, layerSupport, layerTestkit, layerConfig},
	layerExample: {layerRoot, layerExample},
}

// layerExtras are the packages of the module a package may import beyond
// its layer's: the robot runtime drives the manager, and the monitor (web)
// shows both.
var layerExtras = map[string][]string{
	"robot": {"dialogue"},
	"web":   {"dialogue", "robot"},
}

// forbiddenStd are the standard packages a layer must not import: no test
// code in production packages, and no files, environment, processes,
// network or databases in the root package, the pure packages, the
// engines and the manager (cmd/nadine and the adapters do that).
var forbiddenStd = func() map[string][]string {
	noTest := []string{"testing", "net/http/httptest"}
	noIO := append([]string{"os", "os/exec", "net", "net/http", "database/sql", "syscall"}, noTest...)
	return map[string][]string{
		layerRoot: noIO, layerPure: noIO, layerEngine: noIO,
		layerRuntime: noTest, layerAdapter: noTest, layerSupport: noTest, layerConfig: noTest,
		layerCmd: noTest, // the nadine binary ships no test code (nadine bench's scripted servers do without)
	}
}()

// noIOPackages are packages of a layer allowed I/O that must not have
// it either: the dialogue manager.
var noIOPackages = map[string]bool{"dialogue": true}

// thirdParty are the modules outside the standard library that the root
// package, the pure packages, the engines and the runtime may import.
var thirdParty = []string{"golang.org/x/text/"}

// goPackage is what the check needs of `go list -json`.
type goPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
	Deps       []string
	Standard   bool
	Error      *struct{ Err string }
}

// layerOf returns the layer of a package of the module given its path
// below the module.
func layerOf(rel string) (string, bool) {
	if l, ok := packageLayers[rel]; ok {
		return l, true
	}
	for p, l := range packageLayers {
		if strings.HasSuffix(p, "/") && strings.HasPrefix(rel, p) {
			return l, true
		}
	}
	return "", false
}

// relPath returns the path of p below the module, and whether p is in the
// module.
func relPath(p string) (string, bool) {
	if p == module {
		return "", true
	}
	rel, ok := strings.CutPrefix(p, module+"/")
	return rel, ok
}

// isStd reports whether an import path is of the standard library (its
// first element has no dot).
func isStd(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

// checkLayers returns one line per import of pkgs that breaks the layering.
func checkLayers(pkgs []goPackage) []string {
	var bad []string
	for _, p := range pkgs {
		rel, ok := relPath(p.ImportPath)
		if !ok {
			continue
		}
		name := rel
		if name == "" {
			name = "nadine"
		}
		layer, ok := layerOf(rel)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: not in any layer; add it to packageLayers in layering_test.go", name))
			continue
		}
		for _, imp := range p.Imports {
			irel, inModule := relPath(imp)
			switch {
			case inModule:
				il, ok := layerOf(irel)
				if ok && slices.Contains(layerImports[layer], il) || slices.Contains(layerExtras[rel], irel) {
					continue
				}
				if irel == "" {
					irel = "nadine"
				}
				bad = append(bad, fmt.Sprintf("%s (%s) imports %s (%s): %s packages may import %s only",
					name, layer, irel, orNone(il), layer, strings.Join(layerImports[layer], ", ")))
			case isStd(imp):
				forbidden := forbiddenStd[layer]
				if noIOPackages[rel] {
					forbidden = forbiddenStd[layerEngine]
				}
				if slices.Contains(forbidden, imp) {
					bad = append(bad, fmt.Sprintf("%s (%s) imports %s, which %s packages must not", name, layer, imp, layer))
				}
			case slices.Contains([]string{layerRoot, layerPure, layerEngine, layerRuntime}, layer):
				if !slices.ContainsFunc(thirdParty, func(m string) bool { return strings.HasPrefix(imp, m) }) {
					bad = append(bad, fmt.Sprintf("%s (%s) imports %s: %s packages import the standard library and %s only",
						name, layer, imp, layer, strings.Join(thirdParty, ", ")))
				}
			}
		}
		// Test code in a production binary comes in through any import:
		// check the whole closure too.
		if slices.Contains(forbiddenStd[layer], "testing") {
			for _, d := range p.Deps {
				if d == "testing" || d == "net/http/httptest" {
					if !slices.Contains(p.Imports, d) {
						bad = append(bad, fmt.Sprintf("%s (%s) links %s through its imports", name, layer, d))
					}
				}
			}
		}
	}
	sort.Strings(bad)
	return bad
}

func orNone(layer string) string {
	if layer == "" {
		return "no layer"
	}
	return layer
}

// listPackages runs `go list -json` on the module's packages.
func listPackages(t *testing.T) []goPackage {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no go command to list the packages: %v", err)
		}
		t.Skipf("no go command to list the packages (%v); CI runs this test", err)
	}
	cmd := exec.Command(goCmd, "list", "-e", "-json=ImportPath,Dir,GoFiles,Imports,Deps,Standard,Error", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if p.Error != nil {
			t.Errorf("go list %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages; want the whole module", len(pkgs))
	}
	return pkgs
}

// TestLayering pins the module's import graph: engines import the root
// package and pure packages only, never an adapter; the runtime depends on
// root types; adapters never import engines or commands; no production
// package links test code.
func TestLayering(t *testing.T) {
	pkgs := listPackages(t)
	for _, line := range checkLayers(pkgs) {
		t.Error(line)
	}
	// Every layer of the table is in use, so the table says what is.
	seen := map[string]bool{}
	for _, p := range pkgs {
		if rel, ok := relPath(p.ImportPath); ok {
			if _, exact := packageLayers[rel]; exact {
				seen[rel] = true
			}
		}
	}
	for rel := range packageLayers {
		if !strings.HasSuffix(rel, "/") && !seen[rel] {
			t.Errorf("packageLayers names %q, which go list does not find; remove it", rel)
		}
	}
}

// TestCheckLayers checks the checker on small graphs: each drift it must
// catch, and the imports it must allow.
func TestCheckLayers(t *testing.T) {
	m := func(rel string) string {
		if rel == "" {
			return module
		}
		return module + "/" + rel
	}
	for _, tt := range []struct {
		name string
		pkg  goPackage
		want string // a substring of the one finding; "" for none
	}{
		{"engine imports root and pure", goPackage{ImportPath: m("react"), Imports: []string{m(""), m("affect"), m("fence"), "strings"}}, ""},
		{"engine imports an adapter", goPackage{ImportPath: m("react"), Imports: []string{m(""), m("tools")}}, "react (engine) imports tools (adapter)"},
		{"engine imports another engine", goPackage{ImportPath: m("agents"), Imports: []string{m("react")}}, "agents (engine) imports react (engine)"},
		{"engine imports the runtime", goPackage{ImportPath: m("offline"), Imports: []string{m("dialogue")}}, "offline (engine) imports dialogue (runtime)"},
		{"engine reads files", goPackage{ImportPath: m("agents"), Imports: []string{"os"}}, "agents (engine) imports os"},
		{"engine imports a third party", goPackage{ImportPath: m("agents"), Imports: []string{"modernc.org/sqlite"}}, "agents (engine) imports modernc.org/sqlite"},
		{"engine imports x/text", goPackage{ImportPath: m("agents"), Imports: []string{"golang.org/x/text/unicode/norm"}}, ""},
		{"dialogue imports an adapter", goPackage{ImportPath: m("dialogue"), Imports: []string{m("translate")}}, "dialogue (runtime) imports translate (adapter)"},
		{"dialogue reads files", goPackage{ImportPath: m("dialogue"), Imports: []string{"os"}}, "dialogue (runtime) imports os"},
		{"robot drives the manager", goPackage{ImportPath: m("robot"), Imports: []string{m(""), m("dialogue")}}, ""},
		{"robot imports the bus", goPackage{ImportPath: m("robot"), Imports: []string{m("mqtt")}}, "robot (runtime) imports mqtt (adapter)"},
		{"adapter imports an engine", goPackage{ImportPath: m("tools"), Imports: []string{m("agents")}}, "tools (adapter) imports agents (engine)"},
		{"adapter imports a command", goPackage{ImportPath: m("sqlite"), Imports: []string{m("cmd/nadine")}}, "sqlite (adapter) imports cmd/nadine (cmd)"},
		{"adapter imports another adapter", goPackage{ImportPath: m("tools"), Imports: []string{m("openai")}}, "tools (adapter) imports openai (adapter)"},
		{"adapter imports a test kit", goPackage{ImportPath: m("openai"), Imports: []string{m("internal/llmtest")}}, "openai (adapter) imports internal/llmtest (testkit)"},
		{"adapter links testing", goPackage{ImportPath: m("openai"), Imports: []string{"net/http"}, Deps: []string{"net/http", "testing"}}, "openai (adapter) links testing"},
		{"pure imports an engine", goPackage{ImportPath: m("labels"), Imports: []string{m("agents")}}, "labels (pure) imports agents (engine)"},
		{"root imports a package of its own", goPackage{ImportPath: m(""), Imports: []string{m("labels")}}, "nadine (root) imports labels (pure)"},
		{"a new package", goPackage{ImportPath: m("planner"), Imports: []string{m("")}}, "planner: not in any layer"},
		{"a command links httptest", goPackage{ImportPath: m("cmd/nadine"), Imports: []string{m("internal/llmtest")}, Deps: []string{"net/http/httptest"}}, "cmd/nadine (cmd) links net/http/httptest"},
		{"the configuration imports a command", goPackage{ImportPath: m("config"), Imports: []string{m("cmd/nadine")}}, "config (config) imports cmd/nadine (cmd)"},
		{"an adapter imports the configuration", goPackage{ImportPath: m("mqtt"), Imports: []string{m("config")}}, "mqtt (adapter) imports config (config)"},
		{"the configuration imports a test kit", goPackage{ImportPath: m("config"), Imports: []string{m("internal/configtest")}}, "config (config) imports internal/configtest (testkit)"},
		{"the configuration reads adapters' options", goPackage{ImportPath: m("config"), Imports: []string{m("mqtt"), m("failover"), m("agents"), "os"}}, ""},
		{"the command wires everything", goPackage{ImportPath: m("cmd/nadine"), Imports: []string{m("agents"), m("tools"), m("robot"), "os"}}, ""},
		{"outside the module", goPackage{ImportPath: "example.com/other", Imports: []string{m("tools")}}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := checkLayers([]goPackage{tt.pkg})
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("findings %q, want none", got)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want)):
				t.Errorf("findings %q, want one with %q", got, tt.want)
			}
		})
	}
}

// TestNoContextScopes: a turn's events and deferred work travel in
// explicit values (the request's Emit and AfterReply, an engine's turn
// object), never in a context. Only the root package puts a value in a
// context: the trace, which observes a turn and steers nothing.
func TestNoContextScopes(t *testing.T) {
	for _, p := range listPackages(t) {
		rel, ok := relPath(p.ImportPath)
		if !ok || rel == "" || strings.HasPrefix(rel, "third_party/") {
			continue
		}
		for _, f := range p.GoFiles {
			for _, at := range contextValues(t, filepath.Join(p.Dir, f)) {
				t.Errorf("%s/%s: %s carries a value in a context; pass it explicitly", rel, at, "context.WithValue")
			}
		}
	}
}

// contextValues returns the positions (file:line) of the context.WithValue
// calls in a Go file.
func contextValues(t *testing.T, path string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	var at []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if ok && sel.Sel.Name == "WithValue" {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "context" {
				pos := fset.Position(sel.Pos())
				at = append(at, fmt.Sprintf("%s:%d", filepath.Base(pos.Filename), pos.Line))
			}
		}
		return true
	})
	return at
}
