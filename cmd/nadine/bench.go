package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// benchModule is what `go run` builds in a checkout without nadine-bench.
const benchModule = "github.com/nadine-robot/nadine/cmd/nadine-bench"

// exitStatus passes a child's exit status on: it already said what went wrong.
type exitStatus struct{ code int }

func (x exitStatus) Error() string { return fmt.Sprintf("nadine-bench exited with status %d", x.code) }

// runBench runs nadine-bench, a binary of its own so that nadine does not link
// the scripted model server, telling it to measure this very nadine.
func runBench(ctx context.Context, args []string, e env) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	argv, err := benchCommand(self, e.getenv("PATH"))
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, argv[0], append(argv[1:], args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	cmd.Env = append(os.Environ(), "NADINE_BENCH_NADINE="+self)
	// An interrupt stops the bench as it would stop nadine: it stops its
	// servers and removes its files.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
	cmd.WaitDelay = 30 * time.Second
	err = cmd.Run()
	if x := (*exec.ExitError)(nil); errors.As(err, &x) && x.ExitCode() > 0 {
		return exitStatus{x.ExitCode()}
	}
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

// benchCommand finds nadine-bench: next to this program, else on path; in
// a checkout of the module with go on path, `go run` builds it.
func benchCommand(self, path string) ([]string, error) {
	dirs := append([]string{filepath.Dir(self)}, filepath.SplitList(path)...)
	if p, ok := findExecutable(dirs, "nadine-bench"); ok {
		return []string{p}, nil
	}
	if goBin, ok := findExecutable(filepath.SplitList(path), "go"); ok {
		if mod, err := os.ReadFile("go.mod"); err == nil && strings.HasPrefix(string(mod), "module github.com/nadine-robot/nadine\n") {
			return []string{goBin, "run", benchModule}, nil
		}
	}
	return nil, errors.New("bench: nadine-bench is not installed: in a checkout of nadine, build it next to nadine with `go build -o " +
		filepath.Join(filepath.Dir(self), "nadine-bench") + " ./cmd/nadine-bench` (or put it on PATH), or run nadine bench from the checkout's root with go on PATH")
}

// findExecutable returns the first dir/name that is an executable file.
func findExecutable(dirs []string, name string) (string, bool) {
	for _, d := range dirs {
		if d == "" {
			continue
		}
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}
