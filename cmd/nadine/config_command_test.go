package main

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/configtest"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/config"
	"github.com/nadine-robot/nadine/tools"
)

func environList(m map[string]string) []string { return configtest.Environ(m) }

func writeConfig(t *testing.T, body string) string { return configtest.WriteConfig(t, body) }

func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestConfigCommandRedactsSecrets(t *testing.T) {
	path := writeConfig(t, "models: {profiles: {default: {base_url: 'https://api.openai.com/v1', model: gpt-5.4-mini, api_key: sk-file-secret-123}}}\n")
	var out bytes.Buffer
	e := env{stdout: &out, stderr: &out, getenv: envMap(map[string]string{"OPENAI_API_KEY": "sk-env-secret-456", "HOME": t.TempDir()})}
	if err := run(t.Context(), []string{"config", "--config", path}, e); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if strings.Contains(s, "sk-file-secret-123") || strings.Contains(s, "sk-env-secret-456") {
		t.Errorf("secret printed:\n%s", s)
	}
	if !strings.Contains(s, "REDACTED") || !strings.Contains(s, "engine: react") || !strings.Contains(s, "key set") {
		t.Errorf("unexpected output:\n%s", s)
	}
}

// TestConfigRedactsURLCredentials: `nadine config` prints no password
// given inside a URL: model base URLs (in the YAML and in the comment
// lines), mqtt.url, service URLs, store URLs and key=value connection
// strings alike.
func TestConfigRedactsURLCredentials(t *testing.T) {
	path := writeConfig(t, `models:
  profiles:
    default: {base_url: 'http://user:s3cret-model@llm.lab:8000/v1', model: m}
    small: {base_url: 'https://ollama.lab/v1', model: m}
mqtt: {url: 'mqtt://robot:s3cret-mqtt@broker.lab:1883'}
tools: {translate_url: 'https://svc:s3cret-translate@translate.lab/'}
`)
	var out bytes.Buffer
	e := env{stdout: &out, stderr: &out, getenv: envMap(map[string]string{"HOME": t.TempDir()})}
	if err := run(t.Context(), []string{"config", "--config", path}, e); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if strings.Contains(s, "s3cret") {
		t.Errorf("a password is printed:\n%s", s)
	}
	for _, want := range []string{"http://user:REDACTED@llm.lab:8000/v1", "mqtt://robot:REDACTED@broker.lab:1883",
		"https://svc:REDACTED@translate.lab/", "https://ollama.lab/v1"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	// The configuration in use keeps its passwords.
	cfg, err := config.Load(path, envMap(map[string]string{"HOME": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	_ = cfg.Redacted()
	if !strings.Contains(cfg.MQTT.URL, "s3cret-mqtt") || !strings.Contains(cfg.Models.Profiles["default"].BaseURL, "s3cret-model") {
		t.Error("redacting changed the configuration in use")
	}
}

func TestConfigStoreURLNeverPrinted(t *testing.T) {
	path := writeConfig(t, "store: {url: 'postgres://nadine:s3cret-pw@db.lab:5432/nadine?password=other-pw'}\n")
	_, err := config.Load(path, envMap(map[string]string{"HOME": t.TempDir(), "NADINE_STORE_VECTOR": "sometimes"}))
	if err == nil || strings.Contains(err.Error(), "s3cret-pw") {
		t.Fatalf("err = %v, want a store.vector error without the password", err)
	}
	var out bytes.Buffer
	e := env{stdout: &out, stderr: &out, getenv: envMap(map[string]string{"HOME": t.TempDir()})}
	if err := run(t.Context(), []string{"config", "--config", path}, e); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); strings.Contains(s, "s3cret-pw") || strings.Contains(s, "other-pw") || !strings.Contains(s, "db.lab:5432") {
		t.Errorf("nadine config printed:\n%s", s)
	}
}

// TestUnknownVariableWarnedAtStart: the program logs the warning when it
// starts, on standard error.
func TestUnknownVariableWarnedAtStart(t *testing.T) {
	_, errOut, err := runNadine(t, map[string]string{"NADINE_ENGIN": "graph"}, "Hello\n", "chat", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "NADINE_ENGIN is not a configuration variable") || !strings.Contains(errOut, "did you mean NADINE_ENGINE?") {
		t.Errorf("stderr:\n%s", errOut)
	}
	_, errOut, err = runNadine(t, map[string]string{"NADINE_ENGIN": "graph"}, "", "config")
	if err != nil || !strings.Contains(errOut, "warning: config: NADINE_ENGIN") {
		t.Errorf("nadine config: %v\n%s", err, errOut)
	}
}

// TestFillerWiring: the search tools newTools registers say the configured
// filler line before they run, and nothing when fillers are off.
func TestFillerWiring(t *testing.T) {
	for _, enabled := range []bool{true, false} {
		t.Run(fmt.Sprint("enabled=", enabled), func(t *testing.T) {
			var asked []string // what happened, in order
			var mu sync.Mutex
			logf := func(s string) { mu.Lock(); asked = append(asked, s); mu.Unlock() }
			serper := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				logf("serper")
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"organic":[{"title":"Geneva","snippet":"A city."}]}`))
			}))
			t.Cleanup(serper.Close)
			file := fmt.Sprintf("tools: {serper_url: %q}\nfiller: {enabled: %v, lines: {en: [\"Hang on, I'm looking.\"]}}\n", serper.URL, enabled)
			env := map[string]string{"HOME": t.TempDir(), "SERPER_API_KEY": "k"}
			cfg, err := config.Load(writeConfig(t, file), envMap(env))
			if err != nil {
				t.Fatal(err)
			}
			a := &app{cfg: cfg, getenv: envMap(env), log: slog.New(slog.DiscardHandler)}
			ts := a.newTools()
			t.Cleanup(func() { _ = tools.CloseAll(ts) })
			if (a.filler != nil) != enabled {
				t.Errorf("filler = %v with filler.enabled %v", a.filler, enabled)
			}
			search, ok := tools.Lookup(ts, tools.NameSearch)
			if !ok {
				t.Fatal("no Google Search")
			}
			ctx := nadine.WithTrace(t.Context(), nadine.NewTrace("t", "x", time.Now()))
			// The tool asks the turn for a filler; the turn's Output words
			// it with the app's Filler (none when disabled).
			fill := func() {
				if line, _ := a.filler.Line(nadine.English); line != "" {
					logf("filler:" + line)
				}
			}
			if _, err := search.Call(ctx, nadine.ToolInput{Text: "Geneva", Language: nadine.English, Filler: fill}); err != nil {
				t.Fatal(err)
			}
			want := []string{"serper"}
			if enabled {
				want = []string{"filler:Hang on, I'm looking.", "serper"}
			}
			mu.Lock()
			defer mu.Unlock()
			if !reflect.DeepEqual(asked, want) {
				t.Errorf("got %q, want %q", asked, want)
			}
		})
	}
}
