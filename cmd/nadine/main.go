// Command nadine is the interaction layer of the Nadine social humanoid
// robot: it turns a final speech transcript into a short spoken reply in the
// right language, with Nadine's emotion, gestures and per-user memory.
// `nadine help` lists the commands (docs/commands.md); the wiring's design
// is in docs/architecture.md#nadine.
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
	"text/tabwriter"

	"github.com/nadine-robot/nadine/config"
	"github.com/nadine-robot/nadine/redact"
)

// version is set with -ldflags "-X main.version=..."; else `nadine version`
// reports the module version Go stamped from the VCS (buildVersion).
var version = "dev"

// env is what a command gets from the process: arguments, streams and the
// environment. Tests build one to run the real program in-process.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	// environ is os.Environ, so that unknown NADINE_* variables are reported.
	environ []string
}

// loadConfig loads with the whole environment: unknown NADINE_* are warnings.
func (e env) loadConfig(path string) (config.Config, error) {
	return config.LoadEnviron(path, e.getenv, e.environ)
}

// preflight makes every check serve makes before it starts anything.
func (e env) preflight(path string) (config.Config, error) {
	return config.Preflight(path, e.getenv, e.environ)
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	e := env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, environ: os.Environ()}
	if err := run(ctx, os.Args[1:], e); err != nil {
		var f flagError
		var x exitStatus
		if !errors.Is(err, flag.ErrHelp) && !errors.As(err, &f) && !errors.As(err, &x) {
			fmt.Fprintln(os.Stderr, "nadine:", err)
		}
		os.Exit(exitCode(err))
	}
}

// exitCode is 2 for usage errors, a child's own for its exit (nadine
// bench), and 1 for everything else.
func exitCode(err error) int {
	var u usageError
	var f flagError
	var x exitStatus
	if errors.As(err, &x) {
		return x.code
	}
	if errors.As(err, &u) || errors.As(err, &f) || errors.Is(err, flag.ErrHelp) {
		return 2
	}
	return 1
}

// flagError is a bad flag the flag package already printed, with the usage.
type flagError struct{ err error }

func (f flagError) Error() string { return f.err.Error() }
func (f flagError) Unwrap() error { return f.err }

type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

// command is one subcommand, its help and the function that runs it.
type command struct {
	name, args, summary string
	run                 func(context.Context, []string, env) error
}

// commands lists every command, in the order the help shows them.
func commands() []command {
	return []command{
		{"chat", "", "talk to Nadine in the terminal (the default command)", runChat},
		{"serve", "", "run on the robot: MQTT bus and web monitor", runServe},
		{"config", "", "check the configuration as serve does (every error at once), then print it (secrets redacted)", runConfig},
		{"memory", "users | show USER | forget USER | reembed", "list, show or erase users' memories; re-embed them", runMemory},
		{"kb", "ingest DIR | sources | search QUESTION | rebuild", "knowledge base: add files, list sources, search, re-embed", runKB},
		{"eval", "[AGENT | ROLE]", "run the agents' test samples against the models", runEval},
		{"bench", "", "measure whole turns against a scripted model server", runBench},
		{"report", "", "write the figures of a day (or a date range) as one HTML file and a JSON summary", runReport},
		{"version", "", "version, VCS revision and date of this build", runVersion},
		{"help", "[COMMAND]", "list the commands, or give one command's flags", nil},
	}
}

func lookupCommand(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// usageText is the help of the whole program.
func usageText() string {
	var b strings.Builder
	b.WriteString("nadine — the interaction layer of the Nadine social robot\n\nUsage: nadine [COMMAND] [FLAGS] [ARGS]\n\nCommands:\n")
	w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %s %s\t%s\n", c.name, c.args, c.summary)
	}
	_ = w.Flush()
	b.WriteString(`
Global flags (every command but help and version):
  --config FILE   YAML configuration (or NADINE_CONFIG)

"nadine help COMMAND" or "nadine COMMAND --help" gives a command's flags.
Every configuration field can be overridden by an environment variable named
after its path, e.g. NADINE_ENGINE=graph, NADINE_DATA_DIR=/var/lib/nadine.
`)
	return b.String()
}

// run parses the command line and runs one command.
func run(ctx context.Context, args []string, e env) error {
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "-help", "--help":
			if args[0] == "help" && len(args) > 1 {
				if wantsHelp(args[1:2]) {
					return commandHelp(ctx, "help", e)
				}
				return commandHelp(ctx, args[1], e)
			}
			fmt.Fprint(e.stdout, usageText())
			return nil
		case "-version", "--version":
			return runVersion(ctx, args[1:], e)
		}
	}
	name := "chat"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	c, ok := lookupCommand(name)
	if !ok {
		return usageError{fmt.Sprintf("unknown command %q%s; nadine help lists the commands", name, config.DidYouMean(name, commandNames()))}
	}
	if wantsHelp(args) {
		return commandHelp(ctx, name, e)
	}
	return c.run(ctx, args, e)
}

func commandNames() []string {
	var out []string
	for _, c := range commands() {
		out = append(out, c.name)
	}
	return out
}

// wantsHelp reports whether args ask for help anywhere before "--", so
// that "nadine kb search --help" shows kb's flags instead of searching.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// commandHelp prints one command's usage and flags to standard output:
// the command itself parses "-h" and prints them before doing anything.
func commandHelp(ctx context.Context, name string, e env) error {
	c, ok := lookupCommand(name)
	if !ok {
		return usageError{fmt.Sprintf("no command %q%s (nadine help lists them)", name, config.DidYouMean(name, commandNames()))}
	}
	if c.run == nil {
		fmt.Fprintf(e.stdout, "Usage: nadine help %s\n\n%s.\n", c.args, c.summary)
		return nil
	}
	he := e
	he.stderr = e.stdout
	if err := c.run(ctx, []string{"-h"}, he); err != nil && !errors.Is(err, flag.ErrHelp) {
		return err
	}
	return nil
}

// cmdFlags' Parse gives a flagError for a bad flag.
type cmdFlags struct{ *flag.FlagSet }

// Parse parses args.
func (f cmdFlags) Parse(args []string) error {
	err := f.FlagSet.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return flagError{err}
}

// flags returns a flag set with the global flags of every command; its
// usage names the command's arguments and what it does.
func flags(name string, e env) (cmdFlags, *string) {
	fs := flag.NewFlagSet("nadine "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	cfg := fs.String("config", e.getenv("NADINE_CONFIG"), "YAML configuration file (default: $NADINE_CONFIG)")
	fs.Usage = func() {
		c, _ := lookupCommand(name)
		fmt.Fprintf(fs.Output(), "Usage: nadine %s [FLAGS] %s\n\n%s.\n\nFlags:\n", name, c.args, c.summary)
		fs.PrintDefaults()
	}
	return cmdFlags{fs}, cfg
}

// parseInterspersed parses flags wherever they stand among the arguments
// ("kb ingest DIR --replace") and returns the positional arguments.
func parseInterspersed(fs cmdFlags, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, nil
		}
		if args[0] == "--" {
			return append(rest, args[1:]...), nil
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}

// newLogger: conversation text (nadine.Content) and user ids (nadine.PersonID)
// reach the logs only with log.content or at level debug.
func newLogger(w io.Writer, c config.LogConfig) *slog.Logger {
	var lvl slog.Level
	_ = lvl.UnmarshalText([]byte(c.Level))
	opts := &slog.HandlerOptions{Level: lvl, ReplaceAttr: redact.ContentReplacer(c.Content || lvl <= slog.LevelDebug)}
	if c.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// runConfig fails exactly when serve would refuse the configuration, every
// error at once; else it prints the warnings and the redacted configuration.
func runConfig(_ context.Context, args []string, e env) error {
	fs, path := flags("config", e)
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := e.preflight(*path)
	for _, w := range cfg.Warnings() {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	if err != nil {
		return err
	}
	return config.Print(e.stdout, cfg, e.getenv)
}
