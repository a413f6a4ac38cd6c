package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/mqtt"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/web"
)

// The pre-flight is the one validation serve runs before starting anything and
// `nadine config` runs alone, so both refuse alike (docs/architecture.md#config).

// fieldError blames one field: its path, where it was given ("nadine.yaml:4",
// "$NADINE_MQTT_URL"; "" for a default) and why.
type fieldError struct{ path, where, msg string }

func (e *fieldError) Error() string {
	var b strings.Builder
	b.WriteString("config: ")
	if e.where != "" {
		b.WriteString(e.where + ": ")
	}
	if e.path != "" {
		b.WriteString(e.path + ": ")
	}
	b.WriteString(e.msg)
	return b.String()
}

// blame appends to errs each error, named by its field and where it was given.
func (c *Config) blame(errs *[]error) func(path, format string, args ...any) {
	return func(path, format string, args ...any) {
		*errs = append(*errs, &fieldError{path: path, where: c.where(path), msg: fmt.Sprintf(format, args...)})
	}
}

// where gave the field at path, or its nearest given parent ("" for defaults).
func (c *Config) where(path string) string {
	for p := path; p != ""; {
		if w, ok := c.origin[p]; ok {
			return w
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return ""
}

// given reports whether the file or a variable set path or a field inside it.
func (c *Config) given(path string) bool {
	for p := range c.origin {
		if p == path || under(p, path) {
			return true
		}
	}
	return false
}

// warn adds a warning about the field at path.
func (c *Config) warn(path, format string, args ...any) {
	c.warnings = append(c.warnings, (&fieldError{path: path, where: c.where(path), msg: fmt.Sprintf(format, args...)}).Error())
}

// Preflight is LoadEnviron plus every check serve makes before starting;
// what serve would accept but notices goes to Warnings.
func Preflight(path string, getenv func(string) string, environ []string) (Config, error) {
	cfg, err := LoadEnviron(path, getenv, environ)
	if cfg.origin == nil {
		return cfg, err // not read: nothing more to check
	}
	errs := []error{err}
	blamed := fieldPaths(err)
	blame := cfg.blame(&errs)
	// One error per field: a part's check stays quiet about fields the
	// rules (or an earlier part) already blamed.
	bad := func(path, format string, args ...any) {
		for _, p := range blamed {
			if p == path || under(p, path) || under(path, p) {
				return
			}
		}
		blamed = append(blamed, path)
		blame(path, format, args...)
	}
	for _, r := range startRules {
		r.check(&cfg, getenv, bad)
	}
	cfg.preflightWarnings(getenv)
	return cfg, errors.Join(errs...)
}

// fieldPaths lists the fields err (a fieldError, or errors joined) blames.
func fieldPaths(err error) []string {
	if fe, ok := err.(*fieldError); ok {
		return []string{fe.path}
	}
	var out []string
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			out = append(out, fieldPaths(e)...)
		}
	}
	return out
}

// under reports whether path is inside parent ("robots[0].prefix" in "robots").
func under(path, parent string) bool {
	return parent != "" && (strings.HasPrefix(path, parent+".") || strings.HasPrefix(path, parent+"["))
}

// startRule is one part serve starts and its check; path is blamed by default.
type startRule struct {
	path  string
	check func(c *Config, getenv func(string) string, bad func(path, format string, args ...any))
}

// startRules are serve's parts in order: a part added to serve adds its check
// here (TestStartRules and TestPreflightWalksTheRules break each).
var startRules = []startRule{
	{"mqtt.broker_users", checkBrokerUsers},
	{"mqtt.listen", checkBrokerListen},
	{"mqtt", checkBuses},
	{"data_dir", checkDataDir},
	{"models.profiles", checkModelClients},
	{"embeddings", checkEmbedder},
	{"http.addr", checkWeb},
}

// checkBrokerUsers: every broker user has a password (serve's BrokerAccounts).
func checkBrokerUsers(c *Config, getenv func(string) string, bad func(string, string, ...any)) {
	if _, _, err := c.BrokerAccounts(getenv); err != nil {
		var fe *fieldError
		if errors.As(err, &fe) {
			bad(fe.path, "%s", fe.msg)
			return
		}
		bad("mqtt.broker_users", "%v", err)
	}
}

// checkBrokerListen: the embedded broker's address (mqtt.StartBroker's check).
func checkBrokerListen(c *Config, _ func(string) string, bad func(string, string, ...any)) {
	if c.MQTT.URL != "" {
		return
	}
	// The users' passwords are checked apart (checkBrokerUsers): here
	// only whether there are any.
	users := map[string]string{}
	for _, u := range c.MQTT.BrokerUsers {
		users[u.Username] = "set"
	}
	if err := c.BrokerOptions(users, nil).Check(); err != nil {
		bad("mqtt.listen", "%v", err)
	}
}

// checkBuses: each robot's connection options (mqtt.Connect's check), TLS
// files first; the URL and prefixes are configRules'.
func checkBuses(c *Config, _ func(string) string, bad func(string, string, ...any)) {
	url := c.MQTT.URL
	if url == "" {
		url = mqtt.DefaultURL // the embedded broker's: plain MQTT
	}
	if mqtt.CheckURL(url) != nil {
		return
	}
	pair := "mqtt.cert_file"
	if c.MQTT.CertFile == "" {
		pair = "mqtt.key_file" // a key without its certificate
	}
	tlsFiles := []struct {
		path string
		tls  mqtt.TLSOptions
	}{
		{"mqtt.ca_file", mqtt.TLSOptions{CAFile: c.MQTT.CAFile}},
		{pair, mqtt.TLSOptions{CertFile: c.MQTT.CertFile, KeyFile: c.MQTT.KeyFile}},
	}
	for _, f := range tlsFiles {
		if f.tls == (mqtt.TLSOptions{}) {
			continue
		}
		if err := (mqtt.Options{URL: "mqtts://127.0.0.1", TLS: f.tls}).Check(); err != nil {
			bad(f.path, "%v", err)
			return
		}
	}
	for _, spec := range c.RobotSpecs() {
		if mqtt.CheckPrefix(spec.Name) != nil {
			continue
		}
		if err := c.BusOptions(spec, url, BrokerCredentials{Username: c.MQTT.Username}, nil, nil).Check(); err != nil {
			bad("mqtt", "%v", err)
			return
		}
	}
}

// checkDataDir: serve can write in data_dir, or in its nearest existing parent.
func checkDataDir(c *Config, _ func(string) string, bad func(string, string, ...any)) {
	if strings.TrimSpace(c.DataDir) == "" {
		return // blamed by the rules
	}
	for d := filepath.Clean(c.DataDir); ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		switch {
		case err == nil && !fi.IsDir():
			bad("data_dir", "%s is not a directory", d)
			return
		case err == nil:
			if err := syscall.Access(d, 0x2|0x1); err != nil { // W_OK|X_OK
				bad("data_dir", "cannot write in %s: %v", d, err)
			}
			return
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			bad("data_dir", "%v", err)
			return
		}
		if filepath.Dir(d) == d {
			return
		}
	}
}

// checkModelClients: each usable profile gets serve's client (openai.New).
func checkModelClients(c *Config, getenv func(string) string, bad func(string, string, ...any)) {
	for _, name := range slices.Sorted(maps.Keys(c.Models.Profiles)) {
		p := c.Models.Profiles[name]
		if !p.Usable(getenv) {
			continue
		}
		if _, err := openai.New(p.ClientConfig(name, getenv)); err != nil {
			bad("models.profiles."+name, "%v", err)
		}
	}
}

// checkEmbedder: the embedder serve makes (openai.NewEmbedder's check).
func checkEmbedder(c *Config, getenv func(string) string, bad func(string, string, ...any)) {
	if _, ok := c.Models.Profiles[c.Models.Roles["embeddings"]]; !ok {
		return // blamed by the rules
	}
	ec, model, err := c.EmbedderConfig(getenv)
	if err == nil && model {
		_, err = openai.NewEmbedder(ec)
	}
	if err != nil {
		path := "embeddings"
		if strings.TrimSpace(c.Embeddings.Model) == "" {
			path = "embeddings.model"
		}
		bad(path, "%v", err)
	}
}

// checkWeb: the monitor's address and token (web.Start's check).
func checkWeb(c *Config, getenv func(string) string, bad func(string, string, ...any)) {
	if c.HTTP.Addr == "off" {
		return
	}
	if err := web.CheckAddr(c.HTTP.Addr, getenv(c.HTTP.TokenEnv)); err != nil {
		if c.HTTP.TokenEnv != "" && web.CheckAddr(c.HTTP.Addr, "a token") == nil { // it lacks the token
			bad("http.addr", "%v (the token is read from $%s; set http.addr: off to disable the monitor)", err, c.HTTP.TokenEnv)
			return
		}
		bad("http.addr", "%v", err)
	}
}

// preflightWarnings notes what serve accepts but probably is not meant: an
// unused profile, a short token, a missing folder.
func (c *Config) preflightWarnings(getenv func(string) string) {
	used := c.usedProfiles()
	for _, name := range slices.Sorted(maps.Keys(c.Models.Profiles)) {
		if c.given("models.profiles."+name) && !used[name] { // not the built-in default
			c.warn("models.profiles."+name, "no role uses this profile (models.roles, models.fallback, robots[*].models, visual.clip_profile)")
		}
	}
	if c.HTTP.Addr != "off" {
		if w := web.TokenWarning(getenv(c.HTTP.TokenEnv)); w != "" {
			c.warn("http.token_env", "%s", w)
		}
	}
	for _, d := range []struct{ path, dir, without string }{
		{"knowledge.dir", c.Knowledge.Dir, "the knowledge base stays empty"},
		{"visual.scenes_dir", c.Visual.ScenesDir, "no scene is indexed"},
		{"tools.songs_dir", c.Tools.SongsDir, "Nadine knows no song"},
	} {
		if d.dir == "" {
			continue
		}
		if fi, err := os.Stat(d.dir); err != nil || !fi.IsDir() {
			c.warn(d.path, "%s is not a directory: serve starts, and %s", d.dir, d.without)
		}
	}
}

// usedProfiles: named by a robot's role, a fallback list or the visual memory.
func (c *Config) usedProfiles() map[string]bool {
	used := map[string]bool{c.Visual.ClipProfile: c.Visual.ClipProfile != ""}
	for _, spec := range c.RobotSpecs() {
		for _, p := range spec.Roles {
			used[p] = true
		}
		for _, p := range spec.Fallback {
			used[p] = true
		}
	}
	for _, p := range c.Models.Fallback {
		used[p] = true
	}
	return used
}

// BrokerOptions are built here so that serve and the pre-flight check the same.
func (c *Config) BrokerOptions(users map[string]string, log *slog.Logger) mqtt.BrokerOptions {
	m := c.MQTT
	return mqtt.BrokerOptions{Addr: m.Listen, Logger: log, Users: users,
		MaxPacketSize: m.MaxPacketSize, MaxClients: m.MaxClients, MaxInflight: m.MaxInflight,
		MaxQueued: m.MaxQueued, MaxQueuedBytes: m.MaxQueuedBytes, MaxRetained: m.MaxRetained, MaxRetainedBytes: m.MaxRetainedBytes,
		WriteTimeout: time.Duration(m.WriteTimeout)}
}

// BusOptions are a robot's bus options on the broker at url.
func (c *Config) BusOptions(spec RobotSpec, url string, self BrokerCredentials, log *slog.Logger,
	persist func(ctx context.Context, ts []nadine.Transcript) ([]nadine.Transcript, error)) mqtt.Options {
	return mqtt.Options{
		URL: url, ClientID: spec.ClientID, Username: self.Username, Password: self.Password,
		TLS:    mqtt.TLSOptions{CAFile: c.MQTT.CAFile, CertFile: c.MQTT.CertFile, KeyFile: c.MQTT.KeyFile, InsecureSkipVerify: c.MQTT.Insecure},
		Prefix: spec.Name, Logger: log, Persist: persist,
	}
}

// ClientConfig is the profile's openai configuration, minus the app's transport.
func (p ProfileConfig) ClientConfig(name string, getenv func(string) string) openai.Config {
	return openai.Config{
		Profile: name, BaseURL: p.BaseURL, APIKey: p.Key(getenv), Model: p.Model,
		Temperature: p.Temperature, Timeout: time.Duration(p.Timeout), MaxTokens: p.MaxTokens,
		Structured: nadine.StructuredMode(p.Structured),
	}
}

// EmbedderConfig is the embedder's openai configuration; model is false when
// the lexical embedder serves (lexical, or auto with no usable profile).
func (c *Config) EmbedderConfig(getenv func(string) string) (ec openai.EmbedderConfig, model bool, err error) {
	e := c.Embeddings
	name := c.Models.Roles["embeddings"]
	p, ok := c.Models.Profiles[name]
	if e.Provider != "openai" && (e.Provider != "auto" || !ok || !p.Usable(getenv)) {
		return ec, false, nil
	}
	if !ok {
		return ec, true, fmt.Errorf("config: models.roles.embeddings: no profile named %q", name)
	}
	return openai.EmbedderConfig{Profile: name, BaseURL: p.BaseURL, APIKey: p.Key(getenv), Model: e.Model,
		Dimensions: e.Dimensions, Timeout: time.Duration(p.Timeout)}, true, nil
}
