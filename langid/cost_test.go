//go:build compare

package langid_test

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

var costFlag = flag.Bool("cost", false, "build one tiny binary per detector candidate and report its size, startup time and memory (slow: about a minute)")

// costHarness is the body shared by every tiny program: it constructs the
// detector (setup), detects one sentence (with no letter unique to one
// language, so lingua-go has to consult its models), and prints what that
// cost.
const costHarness = `package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
	%s
)

func main() {
	start := time.Now()
	%s
	built := time.Since(start)
	start = time.Now()
	got := detect("I am smiling now.")
	first := time.Since(start)
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	runtime.KeepAlive(detect)
	rss := ""
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "VmHWM:") {
				rss = strings.Join(strings.Fields(l)[1:], "")
			}
		}
	}
	fmt.Printf("result=%%v build=%%v first=%%v heap=%%dKiB peakrss=%%s\n", got, built, first, m.HeapAlloc>>10, rss)
}
`

var costPrograms = []struct {
	name, imports, setup string
}{
	{"baseline (no detector)", "", `detect := func(s string) any { return len(s) }`},
	{"langid", `"github.com/nadine-robot/nadine/langid"`, `d, err := langid.New()
	if err != nil {
		panic(err)
	}
	detect := func(s string) any { l, _, _ := d.Detect(s); return l }`},
	{"lingua-go high, preloaded", `"github.com/pemistahl/lingua-go"`, `d := lingua.NewLanguageDetectorBuilder().FromLanguages(lingua.English, lingua.French, lingua.German, lingua.Chinese).WithPreloadedLanguageModels().Build()
	detect := func(s string) any { l, _ := d.DetectLanguageOf(s); return l }`},
	{"lingua-go high, lazy", `"github.com/pemistahl/lingua-go"`, `d := lingua.NewLanguageDetectorBuilder().FromLanguages(lingua.English, lingua.French, lingua.German, lingua.Chinese).Build()
	detect := func(s string) any { l, _ := d.DetectLanguageOf(s); return l }`},
	{"lingua-go low, preloaded", `"github.com/pemistahl/lingua-go"`, `d := lingua.NewLanguageDetectorBuilder().FromLanguages(lingua.English, lingua.French, lingua.German, lingua.Chinese).WithLowAccuracyMode().WithPreloadedLanguageModels().Build()
	detect := func(s string) any { l, _ := d.DetectLanguageOf(s); return l }`},
	{"whatlanggo", `"github.com/abadojack/whatlanggo"`, `detect := func(s string) any { return whatlanggo.Detect(s).Lang }`},
}

// TestBinaryCost builds, with -ldflags='-s -w', one tiny program per
// candidate that imports only that detector, in a scratch module that uses
// this repository's go.mod and go.sum (so the versions are the same), and
// prints each binary's size and its cost above the baseline, the
// construction time, the first detection's time, the live heap and the peak
// RSS. It runs only with -cost and the build tag "compare" (it builds
// programs with lingua-go): go test -tags compare -run TestBinaryCost -cost -v ./langid/
func TestBinaryCost(t *testing.T) {
	if !*costFlag {
		t.Skip("run with -cost")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mod := regexp.MustCompile(`(?m)^module .*$`).ReplaceAllString(string(gomod), "module costcheck")
	mod += "\nrequire github.com/nadine-robot/nadine v0.0.0\n\nreplace github.com/nadine-robot/nadine => " + root + "\n"
	write := func(name, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", mod)
	write("go.sum", string(gosum))

	var b strings.Builder
	fmt.Fprintf(&b, "%-27s %12s %10s  %s\n", "program", "bytes", "+MB", "startup and memory")
	var base int64
	for i, p := range costPrograms {
		pkg := fmt.Sprintf("p%d", i)
		write(filepath.Join(pkg, "main.go"), fmt.Sprintf(costHarness, p.imports, p.setup))
		bin := filepath.Join(dir, pkg+".bin")
		cmd := exec.Command("go", "build", "-mod=mod", "-ldflags=-s -w", "-o", bin, "./"+pkg)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", p.name, err, out)
		}
		fi, err := os.Stat(bin)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			base = fi.Size()
		}
		out, err := exec.Command(bin).CombinedOutput()
		if err != nil {
			t.Fatalf("run %s: %v\n%s", p.name, err, out)
		}
		fmt.Fprintf(&b, "%-27s %12d %10.2f  %s", p.name, fi.Size(), float64(fi.Size()-base)/(1<<20), out)
		if p.name == "langid" {
			if got, want := fi.Size()-base, int64(2<<20); got > want {
				t.Errorf("langid adds %d bytes to a binary, want <= %d", got, want)
			}
		}
	}
	t.Log("\n" + b.String())
}
