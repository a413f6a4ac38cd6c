package main

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/internal/llmtest"
)

// TestHelp: the program's help lists every command and exits 0, however it
// is asked for; a command's help gives its flags and does nothing else.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"-help"}} {
		out, _, err := runNadine(t, nil, "", args...)
		if err != nil {
			t.Errorf("nadine %v: %v, want exit 0", args, err)
		}
		for _, c := range commands() {
			if !strings.Contains(out, "\n  "+c.name+" ") {
				t.Errorf("nadine %v does not list %s:\n%s", args, c.name, out)
			}
		}
	}
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"help", "kb"}, []string{"Usage: nadine kb", "-replace", "-config"}},
		{[]string{"kb", "--help"}, []string{"Usage: nadine kb", "-replace"}},
		{[]string{"kb", "search", "--help"}, []string{"Usage: nadine kb", "-k int"}},
		{[]string{"chat", "-h"}, []string{"Usage: nadine chat", "-json", "-lang"}},
		{[]string{"--json", "--help"}, []string{"Usage: nadine chat"}},
		{[]string{"help", "eval"}, []string{"Usage: nadine eval", "AGENT | ROLE", "-v"}},
		{[]string{"help", "help"}, []string{"Usage: nadine help"}},
	}
	for _, tt := range tests {
		out, _, err := runNadine(t, nil, "", tt.args...)
		if err != nil {
			t.Errorf("nadine %v: %v, want exit 0", tt.args, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("nadine %v lacks %q:\n%s", tt.args, w, out)
			}
		}
	}
	// Every command answers --help before doing any work (bench would
	// start servers, serve a broker, chat would wait for input).
	// bench's flags are nadine-bench's (bench_test.go): a stand-in answers.
	bench := map[string]string{"PATH": fakeBench(t, `echo "Usage: nadine bench [FLAGS]"`)}
	for _, c := range commands() {
		out, _, err := runNadine(t, bench, "", c.name, "--help")
		if err != nil || !strings.Contains(out, "Usage: nadine "+c.name) {
			t.Errorf("nadine %s --help: %v\n%s", c.name, err, out)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"serv"}, `unknown command "serv" (did you mean serve?)`},
		{[]string{"fly"}, `unknown command "fly"; nadine help lists the commands`},
		{[]string{"help", "kbb"}, `no command "kbb" (did you mean kb?)`},
		{[]string{"version", "extra"}, "usage: nadine version"},
		{[]string{"eval", "telepathy"}, "roles: "},
	}
	for _, tt := range tests {
		_, _, err := runNadine(t, nil, "", tt.args...)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("nadine %v: %v (exit %d), want a usage error with %q", tt.args, err, exitCode(err), tt.want)
		}
	}
}

func TestReadBuildVersion(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "979f72d1f0ab2c3d4e5f60718293a4b5c6d7e8f9"},
		{Key: "vcs.time", Value: "2026-12-01T07:50:00Z"}, {Key: "vcs.modified", Value: "true"},
	}
	tests := []struct {
		name, stamp string
		bi          *debug.BuildInfo
		want        []string
		short       string
	}{
		{"stamp wins", "v1.2.0", &debug.BuildInfo{Main: debug.Module{Path: "github.com/nadine-robot/nadine", Version: "v1.1.0"}, Settings: vcs},
			[]string{"nadine v1.2.0\n", "module    github.com/nadine-robot/nadine", "revision  979f72d1f0ab2c3d4e5f60718293a4b5c6d7e8f9 (modified tree)", "date      2026-12-01T07:50:00Z"},
			"v1.2.0 (979f72d1f0ab, modified)"},
		{"module version from the VCS", "dev", &debug.BuildInfo{Main: debug.Module{Path: "m", Version: "v0.0.0-20261201075000-979f72d1f0ab+dirty"}, Settings: vcs},
			[]string{"nadine v0.0.0-20261201075000-979f72d1f0ab+dirty\n"}, "v0.0.0-20261201075000-979f72d1f0ab+dirty"},
		{"clean tree", "", &debug.BuildInfo{Main: debug.Module{Path: "m", Version: "(devel)"}, Settings: vcs[:3]},
			[]string{"nadine dev\n", "(clean tree)"}, "dev (979f72d1f0ab)"},
		{"no VCS", "dev", &debug.BuildInfo{Main: debug.Module{Path: "m", Version: "(devel)"}},
			[]string{"nadine dev\n", "revision  unknown"}, "dev"},
		{"no build info", "v2", nil, []string{"nadine v2\n", "revision  unknown", "go        go"}, "v2"},
	}
	for _, tt := range tests {
		v := readBuildVersion(tt.stamp, tt.bi, tt.bi != nil)
		s := v.String()
		for _, w := range tt.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: version lacks %q:\n%s", tt.name, w, s)
			}
		}
		if got := v.Short(); got != tt.short {
			t.Errorf("%s: Short() = %q, want %q", tt.name, got, tt.short)
		}
	}
}

func TestVersionCommand(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		out, _, err := runNadine(t, nil, "", args...)
		if err != nil || !strings.HasPrefix(out, "nadine ") || !strings.Contains(out, "revision") {
			t.Errorf("nadine %v = %q, %v", args, out, err)
		}
	}
}

// TestVersionOfBuiltBinary builds the binary with the version stamped as
// the README's release command does, and checks what `nadine version` and
// `--version` say: the stamped version and, in a git clone, its revision.
func TestVersionOfBuiltBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel() // the build runs while the other tests do
	bin := filepath.Join(t.TempDir(), "nadine")
	// The flags of a plain build but -X, so that a warm build cache serves.
	build := exec.Command("go", "build", "-buildvcs=auto", "-ldflags", "-X main.version=v9.8.7-test", "-o", bin, ".")
	build.Env = append(build.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, flag := range []string{"version", "--version"} {
		out, err := exec.Command(bin, flag).CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "nadine v9.8.7-test\n") {
			t.Errorf("nadine %s = %q, %v", flag, out, err)
		}
		// Go stamps the revision in a clone (CI's), not in a git
		// worktree, whose .git is a file.
		head, gitErr := exec.Command("git", "rev-parse", "HEAD").Output()
		top, _ := exec.Command("git", "rev-parse", "--show-toplevel").Output()
		st, statErr := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git"))
		if gitErr == nil && statErr == nil && st.IsDir() && !strings.Contains(string(out), "revision  "+strings.TrimSpace(string(head))) {
			t.Errorf("nadine %s does not name the checkout's revision %s:\n%s", flag, head, out)
		}
	}
	// A bad flag is a usage error: exit 2, said once, with the usage.
	for _, args := range [][]string{{"chat", "--bogus"}, {"--bogus"}, {"kb", "sources", "--nope"}} {
		out, err := exec.Command(bin, args...).CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("nadine %v: %v, want exit status 2", args, err)
		}
		if n := strings.Count(string(out), "flag provided but not defined"); n != 1 || !strings.Contains(string(out), "Usage: nadine") {
			t.Errorf("nadine %v printed the error %d times (want once, with the usage):\n%s", args, n, out)
		}
	}
}

// TestEvalFailedCalls: against a model server that is down, eval says that
// every call failed, which profile and why, and exits non-zero.
func TestEvalFailedCalls(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + l.Addr().String() + "/v1"
	l.Close()
	vars := map[string]string{"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": down,
		"NADINE_MODELS_PROFILES_DEFAULT_MAX_RETRIES": "0", "NADINE_MODELS_PROFILES_DEFAULT_TIMEOUT": "2s"}
	out, _, err := runNadine(t, vars, "", "eval", "intent_classifier")
	if err == nil || exitCode(err) != 1 {
		t.Fatalf("eval against a server that is down: err = %v, want exit 1\n%s", err, out)
	}
	m := regexp.MustCompile(`(\d+) of (\d+) calls failed`).FindStringSubmatch(err.Error())
	if m == nil || m[1] != m[2] || m[1] == "0" {
		t.Errorf("err = %v, want every call counted as failed", err)
	}
	for _, w := range []string{"models.profiles.default", "unreachable", "connection"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("err = %v, want it to say %q", err, w)
		}
	}
	if !strings.Contains(out, "intent") {
		t.Errorf("the table is still printed:\n%s", out)
	}
}

// TestEvalRoleNames: a model role selects the agents that measure it, and
// a model that answers passes with exit 0.
func TestEvalRoleNames(t *testing.T) {
	srv := llmtest.New(t)
	srv.Default().Reply("continue_conversation")
	for _, name := range []string{"intent_classifier", "intent"} {
		out, _, err := runNadine(t, modelEnv(t, srv, nil), "", "eval", name)
		if err != nil {
			t.Fatalf("eval %s: %v", name, err)
		}
		if !strings.Contains(out, "intent  ") || !strings.Contains(out, "intent_classifier") || strings.Contains(out, "user_info") {
			t.Errorf("eval %s:\n%s", name, out)
		}
	}
	out, _, err := runNadine(t, modelEnv(t, srv, nil), "", "eval", "memory_update", "--json")
	if err != nil || !strings.Contains(out, `"agent":"user_info"`) || !strings.Contains(out, `"agent":"episodic_memory"`) {
		t.Errorf("eval memory_update --json: %v\n%s", err, out)
	}
}
