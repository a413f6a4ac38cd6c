// Command nadine-bench measures whole turns of a real `nadine serve` against
// a scripted model server: latency per engine and fleet, --faults, inbox,
// interrupt and bus. It is its own binary so that nadine does not link the
// scripted server; `nadine bench ARGS` runs it (docs/commands.md,
// docs/architecture.md#nadine-bench).
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"syscall"

	"go.yaml.in/yaml/v3"
)

// nadineEnv names the nadine binary the bench runs as `nadine serve`;
// `nadine bench` sets it to itself.
const nadineEnv = "NADINE_BENCH_NADINE"

// env is what the bench gets from the process; tests build one.
type env struct {
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := runBench(ctx, os.Args[1:], env{stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv})
	stop()
	if err != nil && !errors.Is(err, flag.ErrHelp) && !errors.As(err, new(flagError)) { // the flag package printed its own
		fmt.Fprintln(os.Stderr, "nadine bench:", err)
	}
	os.Exit(exitCode(err))
}

// exitCode is nadine's: 0 for help, 2 for usage errors, 1 for the rest.
func exitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(usageError)), errors.As(err, new(flagError)):
		return 2
	}
	return 1
}

// usageError is a bad argument: exit status 2, as nadine's.
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

// flagError is a bad flag the flag package already printed, with the usage.
type flagError struct{ err error }

func (f flagError) Error() string { return f.err.Error() }
func (f flagError) Unwrap() error { return f.err }

// benchFlags is a bench's flag set, whose Parse gives a flagError for a bad
// flag.
type benchFlags struct{ *flag.FlagSet }

// Parse parses args.
func (f benchFlags) Parse(args []string) error {
	err := f.FlagSet.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return flagError{err}
}

// flags returns the flag set of `nadine NAME` (name is "bench", "bench
// inbox", …), its usage written as nadine writes a command's.
func flags(name string, e env) benchFlags {
	fs := flag.NewFlagSet("nadine "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: nadine %s [FLAGS]\n\nmeasure whole turns against a scripted model server.\n\nFlags:\n", name)
		fs.PrintDefaults()
	}
	return benchFlags{fs}
}

// nadineBinary finds the nadine the bench measures: $NADINE_BENCH_NADINE,
// else nadine next to this program, else nadine on PATH.
func nadineBinary() (string, error) {
	if p := os.Getenv(nadineEnv); p != "" {
		return p, nil
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), "nadine")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath("nadine"); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("bench: no nadine binary to measure: run it as `nadine bench`, put nadine next to nadine-bench or on PATH (go build ./cmd/nadine), or set %s", nadineEnv)
}

// servedDefaults are the measured nadine's default model roles and embedding
// model: asking the binary keeps the bench in step with it.
type servedDefaults struct {
	Roles      []string
	EmbedModel string
}

// askDefaults runs `nadine config` without a configuration file and reads
// the effective configuration it prints.
func askDefaults(ctx context.Context) (servedDefaults, error) {
	exe, err := nadineBinary()
	if err != nil {
		return servedDefaults{}, err
	}
	home, err := os.MkdirTemp("", "nadine-bench-defaults-")
	if err != nil {
		return servedDefaults{}, err
	}
	defer os.RemoveAll(home)
	cmd := exec.CommandContext(ctx, exe, "config")
	cmd.Env = []string{"HOME=" + home}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return servedDefaults{}, fmt.Errorf("bench: %s config: %w\n%s", exe, err, stderr.String())
	}
	var cfg struct {
		Models struct {
			Roles map[string]string `yaml:"roles"`
		} `yaml:"models"`
		Embeddings struct {
			Model string `yaml:"model"`
		} `yaml:"embeddings"`
	}
	if err := yaml.Unmarshal(out, &cfg); err != nil {
		return servedDefaults{}, fmt.Errorf("bench: read %s config: %w", exe, err)
	}
	d := servedDefaults{EmbedModel: cfg.Embeddings.Model}
	for r := range cfg.Models.Roles {
		d.Roles = append(d.Roles, r)
	}
	sort.Strings(d.Roles)
	if len(d.Roles) == 0 || d.EmbedModel == "" || !slices.Contains(d.Roles, "embeddings") {
		return servedDefaults{}, fmt.Errorf("bench: %s config names no model roles or embedding model", exe)
	}
	return d, nil
}
