// Command nadine is the interaction layer of the Nadine social humanoid
// robot: it turns a final speech transcript into a short spoken reply in the
// right language, Nadine's emotion and gestures, with per-user memory
// carried across days.
//
// Usage:
//
//	nadine chat [--json]         talk to Nadine in the terminal
//	nadine serve                 run on the robot: MQTT bus and web monitor
//	nadine config                print the effective configuration
//	nadine memory users|show|forget|reembed
//	nadine kb ingest DIR | kb search QUESTION
//	nadine eval [AGENT]          run the agents' test samples against the models
//	nadine version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/nadine-robot/nadine"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// env is what a command gets from the process: arguments, streams and the
// environment. Tests build one to run the real program in-process.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	e := env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	if err := run(ctx, os.Args[1:], e); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "nadine:", err)
		}
		os.Exit(exitCode(err))
	}
}

// exitCode is 2 for usage errors and 1 for everything else.
func exitCode(err error) int {
	var u usageError
	if errors.As(err, &u) || errors.Is(err, flag.ErrHelp) {
		return 2
	}
	return 1
}

type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

const usage = `nadine — the interaction layer of the Nadine social robot

Usage:
  nadine chat [--json]           talk to Nadine in the terminal (default)
  nadine serve                   run on the robot: MQTT bus and web monitor
  nadine config                  print the effective configuration (secrets redacted)
  nadine memory users            list known users
  nadine memory show USER        a user's profile and memories
  nadine memory forget USER      erase everything about a user
  nadine memory reembed          re-embed memories after changing the embedder
  nadine kb ingest DIR           add Markdown, text and PDF files to the knowledge base
  nadine kb search QUESTION      search the knowledge base
  nadine eval [AGENT]            run the agents' test samples, print pass rates
  nadine bench                   measure whole turns through nadine serve against a scripted model server
  nadine version

Global flags (before or after the command):
  --config FILE                  YAML configuration (or NADINE_CONFIG)

Every configuration field can be overridden by an environment variable named
after its path, e.g. NADINE_ENGINE=graph, NADINE_DATA_DIR=/var/lib/nadine.
`

// run parses the command line and runs one command.
func run(ctx context.Context, args []string, e env) error {
	cmd := "chat"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "chat":
		return runChat(ctx, args, e)
	case "serve":
		return runServe(ctx, args, e)
	case "config":
		return runConfig(ctx, args, e)
	case "memory":
		return runMemory(ctx, args, e)
	case "kb":
		return runKB(ctx, args, e)
	case "eval":
		return runEval(ctx, args, e)
	case "bench":
		return runBench(ctx, args, e)
	case "version":
		fmt.Fprintln(e.stdout, "nadine", version)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(e.stdout, usage)
		return nil
	}
	fmt.Fprint(e.stderr, usage)
	return usageError{fmt.Sprintf("unknown command %q", cmd)}
}

// flags returns a flag set with the global flags of every command.
func flags(name string, e env) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet("nadine "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	cfg := fs.String("config", e.getenv("NADINE_CONFIG"), "YAML configuration file")
	return fs, cfg
}

// newLogger builds the process logger from the configuration. Logs carry
// conversation text (nadine.Content, quoted parts of errors) only with
// log.content or at level debug.
func newLogger(w io.Writer, c LogConfig) *slog.Logger {
	var lvl slog.Level
	_ = lvl.UnmarshalText([]byte(c.Level))
	opts := &slog.HandlerOptions{Level: lvl, ReplaceAttr: nadine.ContentReplacer(c.Content || lvl <= slog.LevelDebug)}
	if c.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// runConfig prints the effective configuration with secrets redacted.
func runConfig(_ context.Context, args []string, e env) error {
	fs, path := flags("config", e)
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := loadConfig(*path, e.getenv)
	if err != nil {
		return err
	}
	return printConfig(e.stdout, cfg, e.getenv)
}
