package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/config"
	"github.com/nadine-robot/nadine/internal/configtest"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/internal/syncbuf"
	"gopkg.in/yaml.v3"
)

// outcome is what a command did with a configuration.
type outcome struct {
	err     error
	started bool // serve: it started (and was stopped)
}

// serveOnce runs `nadine serve` in-process on the configuration file with
// the variables: it is refused (err) or it starts, and is then stopped.
func serveOnce(t *testing.T, file string, vars map[string]string) outcome {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var stderr syncbuf.Buffer
	e := env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, getenv: envMap(vars), environ: environList(vars)}
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve", "--config", file}, e) }()
	deadline := time.After(mqtttest.Failsafe)
	for {
		select {
		case err := <-done:
			if err == nil {
				t.Fatalf("serve ended without error before it was stopped:\n%s", stderr.String())
			}
			return outcome{err: err}
		case <-deadline:
			t.Fatalf("serve neither started nor refused:\n%s", stderr.String())
		case <-time.After(5 * time.Millisecond):
		}
		if strings.Contains(stderr.String(), "MQTT: ") {
			stop()
			if err := <-done; err != nil {
				t.Fatalf("serve started, then failed: %v", err)
			}
			return outcome{started: true}
		}
	}
}

// configOnce runs `nadine config` on the configuration file.
func configOnce(t *testing.T, file string, vars map[string]string) outcome {
	t.Helper()
	_, _, err := runNadine(t, vars, "", "config", "--config", file)
	return outcome{err: err}
}

// errorLines splits a joined configuration error into its lines.
func errorLines(err error) []string {
	if err == nil {
		return nil
	}
	return strings.Split(err.Error(), "\n")
}

// issueCases are the configurations issue 28 found `nadine config`
// passing and serve refusing.
var issueCases = []configtest.RuleCase{
	{Path: "mqtt.url", File: "mqtt: {url: 'htp://broker.local:1883'}\n", Want: `unsupported scheme "htp"`},
	{Path: "http.addr", File: "http: {addr: 'not an address'}\n", Want: "missing port"},
	{Path: "mqtt.prefix", File: "mqtt: {prefix: '/'}\n", Want: "empty topic level"},
}

// serveVars are the variables serve runs with in these tests: one home
// (its data directory, its knowledge base built once), and free ports
// for the broker and the monitor unless the file sets them.
func serveVars(t *testing.T, home, file string) map[string]string {
	t.Helper()
	vars := map[string]string{"HOME": home}
	var doc map[string]map[string]any
	b, err := os.ReadFile(file)
	if err == nil {
		_ = yaml.Unmarshal(b, &doc) // a case that is not such a map sets neither
	}
	if _, ok := doc["mqtt"]["listen"]; !ok {
		vars["NADINE_MQTT_LISTEN"] = "127.0.0.1:0"
	}
	if _, ok := doc["http"]["addr"]; !ok {
		vars["NADINE_HTTP_ADDR"] = "127.0.0.1:0"
	}
	return vars
}

// TestPreflightWalksTheRules walks every rule — the configuration's rule
// table, the rules of robots:, the start rules (config's tests give each a
// case) — and issue 28's configurations: for each case breaking one,
// `nadine serve` refuses to start, `nadine config` exits with an error,
// both say the same, and it blames the case's field where the file gave
// it.
func TestPreflightWalksTheRules(t *testing.T) {
	home := t.TempDir()
	var cases []configtest.RuleCase
	cases = append(cases, configtest.Rules()...)
	cases = append(cases, configtest.RobotRules()...)
	cases = append(cases, configtest.StartRules(t)...)
	cases = append(cases, issueCases...)
	for _, tt := range cases {
		file := writeConfig(t, tt.File)
		vars := serveVars(t, home, file)
		cfg, srv := configOnce(t, file, vars), serveOnce(t, file, vars)
		switch {
		case cfg.err == nil || srv.err == nil:
			t.Errorf("%s (%q): config error %v, serve error %v (started %v); want both refused", tt.Path, tt.File, cfg.err, srv.err, srv.started)
			continue
		case cfg.err.Error() != srv.err.Error():
			t.Errorf("%s: config and serve disagree:\nconfig: %v\nserve:  %v", tt.Path, cfg.err, srv.err)
		}
		at := regexp.MustCompile(`(?m)^config: ` + regexp.QuoteMeta(file) + `:\d+: ` + regexp.QuoteMeta(tt.Path) + `: .*` + regexp.QuoteMeta(tt.Want))
		if !at.MatchString(cfg.err.Error()) {
			t.Errorf("%s: error %v\nwant %q blamed at %s:LINE with %q", tt.Path, cfg.err, tt.Path, file, tt.Want)
		}
	}
	t.Logf("%d configurations: each refused by config and by serve, alike", len(cases))
}

// TestPreflightAgreesWithServe combines, without any tuning, every text,
// number and duration field of the configuration with hostile values (a
// misspelt scheme, no port, a lone slash, a wildcard, a bad port, a path
// under a file, negative, zero, huge, tiny...), set through the
// environment, and runs both commands on each: `nadine config` refuses
// exactly the ones serve refuses, with the same error. It prints how many
// each refused.
func TestPreflightAgreesWithServe(t *testing.T) {
	if testing.Short() {
		t.Skip("starts nadine serve a few hundred times")
	}
	t.Parallel() // in-process, free ports, its own variables: it runs beside the rest
	home := t.TempDir()
	file := writeConfig(t, "# the defaults\n")
	if o := serveOnce(t, file, serveVars(t, home, file)); !o.started { // builds the knowledge base once
		t.Fatalf("the defaults: %v", o.err)
	}
	aFile := filepath.Join(t.TempDir(), "afile")
	if err := os.WriteFile(aFile, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	texts := []string{"htp://broker.local:1883", "not an address", "/", "nadine/#", "127.0.0.1:eighty", "$SYS"}
	paths := []string{aFile, filepath.Join(aFile, "under")} // for the fields naming files and folders
	numbers := []string{"-1", "0", "1e9"}
	durations := []string{"-1s", "0s", "1ms"}
	type trial struct{ name, path, value string }
	var trials []trial
	for _, p := range config.Paths() {
		if strings.Contains(p, "[*]") || strings.HasPrefix(p, "models.roles.") || strings.HasPrefix(p, "models.timeouts.") ||
			strings.HasPrefix(p, "filler.lines.") {
			continue // lists of structures, and maps whose keys the rules check
		}
		fields := (&config.Config{Models: config.ModelsConfig{Profiles: map[string]config.ProfileConfig{"default": {}}}}).Fields(p)
		if len(fields) != 1 {
			continue
		}
		p = fields[0].Path
		var values []string
		switch v := fields[0].Value; {
		case v.Type() == reflect.TypeOf(config.Duration(0)):
			values = durations
		case v.Kind() == reflect.String && (strings.HasSuffix(p, "dir") || strings.HasSuffix(p, "file")):
			values = paths
		case v.Kind() == reflect.String:
			values = texts
		case v.Kind() == reflect.Int || v.Kind() == reflect.Float64:
			values = numbers
		}
		for _, v := range values {
			trials = append(trials, trial{"NADINE_" + strings.ToUpper(strings.ReplaceAll(p, ".", "_")), p, v})
		}
	}
	// Four workers, each with its own copy of the data directory (serves
	// that share one would contend for its database), run beside each other.
	const workers = 4
	var refused, started atomic.Int64
	for w := range workers {
		t.Run(fmt.Sprint("worker", w), func(t *testing.T) {
			t.Parallel()
			own := t.TempDir()
			if err := os.CopyFS(own, os.DirFS(home)); err != nil {
				t.Fatal(err)
			}
			for i := w; i < len(trials); i += workers {
				name, p, v := trials[i].name, trials[i].path, trials[i].value
				vars := serveVars(t, own, file)
				vars[name] = v
				cfg, srv := configOnce(t, file, vars), serveOnce(t, file, vars)
				switch {
				case srv.started && cfg.err != nil:
					t.Errorf("%s=%q: serve started, config refused: %v", name, v, cfg.err)
				case srv.err != nil && cfg.err == nil:
					t.Errorf("%s=%q: serve refused, config passed: %v", name, v, srv.err)
				case srv.err != nil && srv.err.Error() != cfg.err.Error():
					t.Errorf("%s=%q: they disagree:\nconfig: %v\nserve:  %v", name, v, cfg.err, srv.err)
				case srv.err != nil:
					refused.Add(1)
					// Blamed on its field, the value is said to come from the
					// variable (a rule across fields may blame the other one).
					if msg := cfg.err.Error(); strings.Contains(msg, " "+p+": ") && !strings.Contains(msg, "config: $"+name+": "+p+": ") {
						t.Errorf("%s=%q: the error does not name the variable: %v", name, v, cfg.err)
					}
				default:
					started.Add(1)
				}
			}
		})
	}
	t.Cleanup(func() {
		t.Logf("%d configurations: %d refused by both, %d started by serve and passed by config", len(trials), refused.Load(), started.Load())
	})
}

// TestConfigReportsEverythingInOnePass: `nadine config` reports every
// error of a configuration at once — an unknown field, a wrong type, a
// rule, a part's check, a bad variable — each with the file:line or the
// variable that gave it, and fails; a profile no role uses is a warning
// with its line, and does not fail.
func TestConfigReportsEverythingInOnePass(t *testing.T) {
	file := writeConfig(t, `engine: react
mqtt:
  prefx: lobby
  url: htp://broker.local:1883
limits:
  max_steps: lots
memory: {top_k: -1}
http:
  addr: not an address
`)
	vars := map[string]string{"HOME": t.TempDir(), "NADINE_LIMITS_TURN_TIMEOUT": "soon"}
	_, stderr, err := runNadine(t, vars, "", "config", "--config", file)
	if err == nil {
		t.Fatal("nadine config passed")
	}
	want := []string{
		file + ":3: mqtt.prefx: unknown field (did you mean mqtt.prefix?)",
		file + `:4: mqtt.url: must look like mqtt://host:1883, not "htp://broker.local:1883"`,
		file + `:6: limits.max_steps: "lots" is not an integer`,
		file + ":7: memory.top_k: -1 is negative",
		file + `:9: http.addr: web: address "not an address"`,
		`$NADINE_LIMITS_TURN_TIMEOUT: limits.turn_timeout: invalid duration "soon"`,
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), "config: "+w) {
			t.Errorf("missing %q in:\n%v", w, err)
		}
	}
	if n := len(errorLines(err)); n != len(want) {
		t.Errorf("%d errors, want %d:\n%v", n, len(want), err)
	}
	if stderr != "" {
		t.Errorf("warnings on a refused configuration: %s", stderr)
	}

	// Valid, with a profile nobody uses: a warning, exit 0.
	file = writeConfig(t, `models:
  profiles:
    default: {base_url: "http://127.0.0.1:11434/v1", model: llama}
    spare: {base_url: "http://127.0.0.1:11434/v1", model: qwen}
`)
	out, stderr, err := runNadine(t, map[string]string{"HOME": t.TempDir(), "NADINE_HTTP_TOKEN": "s3cret-token"}, "", "config", "--config", file)
	if err != nil {
		t.Fatalf("a valid configuration: %v", err)
	}
	for _, w := range []string{
		"warning: config: " + file + ":4: models.profiles.spare: no role uses this profile",
		"warning: config: http.token_env: web: the API token has 12 characters",
	} {
		if !strings.Contains(stderr, w) {
			t.Errorf("warnings:\n%s\nwant %q", stderr, w)
		}
	}
	if strings.Contains(stderr, "s3cret") || strings.Contains(out, "s3cret") {
		t.Error("the token is printed")
	}
	if !strings.Contains(out, "spare:") {
		t.Errorf("the configuration is not printed:\n%s", out)
	}

	// Every role on a profile of the file: the built-in default profile,
	// which nobody defined, is not warned about.
	roles := ""
	for _, r := range config.RoleNames() {
		roles += r + ": local, "
	}
	file = writeConfig(t, "models:\n  profiles: {local: {base_url: 'http://127.0.0.1:11434/v1', model: llama}}\n  roles: {"+roles+"}\n")
	if _, stderr, err = runNadine(t, map[string]string{"HOME": t.TempDir()}, "", "config", "--config", file); err != nil || stderr != "" {
		t.Errorf("every role on one profile: err %v, warnings %q; want none", err, stderr)
	}
}
