package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeBench writes an executable nadine-bench running script (sh) into a
// new directory and returns the directory.
func fakeBench(t *testing.T, script string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "nadine-bench"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBenchRunsNadineBench: `nadine bench ARGS` runs nadine-bench with
// ARGS, tells it which nadine to measure (this one), and passes its
// output and exit status through.
func TestBenchRunsNadineBench(t *testing.T) {
	dir := fakeBench(t, `echo "args: $*"; echo "nadine: $NADINE_BENCH_NADINE"; echo "said on stderr" >&2; exit 3`)
	out, errOut, err := runNadine(t, map[string]string{"PATH": dir}, "", "bench", "--turns", "2", "inbox")
	self, _ := os.Executable()
	if exitCode(err) != 3 {
		t.Errorf("exit status %d (%v), want nadine-bench's 3", exitCode(err), err)
	}
	for _, want := range []string{"args: --turns 2 inbox\n", "nadine: " + self + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if errOut != "said on stderr\n" {
		t.Errorf("stderr = %q, want nadine-bench's", errOut)
	}
	dir = fakeBench(t, `echo "$*"`)
	if out, _, err := runNadine(t, map[string]string{"PATH": dir}, "", "bench", "bus"); err != nil || out != "bus\n" {
		t.Errorf("a bench that succeeds: %q, %v", out, err)
	}
}

// TestBenchCommandLookup: nadine-bench next to nadine comes first, then
// PATH; in a checkout of the module with go on PATH it is run with go run;
// otherwise the error says how to build it.
func TestBenchCommandLookup(t *testing.T) {
	self := filepath.Join(fakeBench(t, "exit 0"), "nadine")
	onPath := fakeBench(t, "exit 0")
	goDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(goDir, "go"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	lone := filepath.Join(t.TempDir(), "nadine")
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, self, path, dir string
		want                  []string
		err                   string
	}{
		{"next to nadine", self, onPath, ".", []string{filepath.Join(filepath.Dir(self), "nadine-bench")}, ""},
		{"on PATH", lone, "/nonexistent:" + onPath, ".", []string{filepath.Join(onPath, "nadine-bench")}, ""},
		{"go run in the module root", lone, goDir, root, []string{filepath.Join(goDir, "go"), "run", benchModule}, ""},
		{"not in the module root", lone, goDir, ".", nil, "go build -o " + filepath.Join(filepath.Dir(lone), "nadine-bench")},
		{"no go", lone, "", root, nil, "nadine-bench is not installed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(tt.dir)
			got, err := benchCommand(tt.self, tt.path)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("benchCommand = %v, %v; want an error with %q", got, err, tt.err)
				}
				return
			}
			if err != nil || strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("benchCommand = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestNoTestkitLinked: the production binary links none of the scripted
// peers (llmtest, mqtttest, …): the bench that needs them is nadine-bench.
func TestNoTestkitLinked(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		for _, kit := range []string{"/internal/llmtest", "/internal/mqtttest", "/internal/storetest", "/internal/golden", "/internal/leaktest"} {
			if strings.HasSuffix(p, kit) {
				t.Errorf("nadine links %s", p)
			}
		}
	}
}
