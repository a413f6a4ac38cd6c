package config

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/configtest"

	"github.com/nadine-robot/nadine"
)

func environList(m map[string]string) []string { return configtest.Environ(m) }

func writeConfig(t *testing.T, body string) string { return configtest.WriteConfig(t, body) }

func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// envOf is an environment of the given variables, listed and by name.
func envOf(m map[string]string) environment {
	return environment{getenv: envMap(m), environ: environList(m)}
}

func TestConfigDefaultsAreSeed000(t *testing.T) {
	cfg, err := loadConfigFrom("", envOf(map[string]string{"HOME": "/home/robot"}))
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.Models.Profiles["default"]
	if cfg.Engine != "react" || p.Model != "gpt-5.4-mini" || p.Temperature == nil || *p.Temperature != 1 ||
		cfg.Embeddings.Model != "text-embedding-3-large" || p.APIKeyEnv != "OPENAI_API_KEY" {
		t.Errorf("defaults = %+v / %+v", cfg, p)
	}
	for _, r := range roleNames {
		if cfg.Models.Roles[r] != "default" {
			t.Errorf("role %s → %q, want default", r, cfg.Models.Roles[r])
		}
	}
	if cfg.DataDir != "/home/robot/.local/share/nadine" {
		t.Errorf("data dir = %q", cfg.DataDir)
	}
	if p.Usable(envMap(nil)) {
		t.Errorf("the OpenAI profile without a key must not be usable")
	}
	if !p.Usable(envMap(map[string]string{"OPENAI_API_KEY": "sk-x"})) {
		t.Errorf("the OpenAI profile with a key must be usable")
	}
}

func TestConfigFileAndEnvironment(t *testing.T) {
	path := writeConfig(t, `
engine: graph
data_dir: /var/lib/nadine
models:
  profiles:
    small: {base_url: "http://localhost:11434/v1", model: nadine-intent_classifier, temperature: 0, timeout: 20s}
    big: {base_url: "http://localhost:11434/v1", model: llama3.1:8b}
  roles: {intent_classifier: small, response: big}
  fallback: [big]
`)
	cfg, err := loadConfigFrom(path, envOf(map[string]string{
		"NADINE_ENGINE":                    "react",
		"NADINE_MODELS_PROFILES_BIG_MODEL": "qwen2.5:14b",
		"NADINE_MODELS_ROLES_ORCHESTRATOR": "small",
		"NADINE_LIMITS_TURN_TIMEOUT":       "45s",
		"NADINE_MEMORY_NAME_HIGH":          "0.9",
		"NADINE_MODELS_FALLBACK":           "big, small",
		"OPENAI_BASE_URL":                  "http://gateway:8000/v1",
	}))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, got, want string }{
		{"engine from env", cfg.Engine, "react"},
		{"data dir from file", cfg.DataDir, "/var/lib/nadine"},
		{"profile from file", cfg.Models.Profiles["small"].Model, "nadine-intent_classifier"},
		{"profile field from env", cfg.Models.Profiles["big"].Model, "qwen2.5:14b"},
		{"role from file", cfg.Models.Roles["intent_classifier"], "small"},
		{"role from env", cfg.Models.Roles["orchestrator"], "small"},
		{"default role kept", cfg.Models.Roles["react_agent"], "default"},
		{"OPENAI_BASE_URL", cfg.Models.Profiles["default"].BaseURL, "http://gateway:8000/v1"},
		{"fallback list", strings.Join(cfg.Models.Fallback, ","), "big,small"},
		{"duration", time.Duration(cfg.Limits.TurnTimeout).String(), "45s"},
		{"timeout from file", time.Duration(cfg.Models.Profiles["small"].Timeout).String(), "20s"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	if cfg.Memory.NameHigh != 0.9 {
		t.Errorf("name_high = %v", cfg.Memory.NameHigh)
	}
	if tp := cfg.Models.Profiles["small"].Temperature; tp == nil || *tp != 0 {
		t.Errorf("temperature 0 lost: %v", tp)
	}
}

func TestConfigErrorsNameTheField(t *testing.T) {
	tests := []struct {
		name, file string
		env        map[string]string
		want       string
	}{
		{"engine", "engine: langchain\n", nil, "config: engine:"},
		{"unknown field", "engien: react\n", nil, "engien"},
		{"profile url", "models: {profiles: {small: {base_url: 'localhost', model: x}}}\n", nil, "models.profiles.small.base_url"},
		{"profile model", "models: {profiles: {small: {base_url: 'http://x/v1'}}}\n", nil, "models.profiles.small.model"},
		{"role profile", "models: {roles: {response: huge}}\n", nil, "models.roles.response"},
		{"unknown role", "models: {roles: {poet: default}}\n", nil, "models.roles.poet"},
		{"fallback", "models: {fallback: [nope]}\n", nil, "models.fallback[0]"},
		{"temperature", "models: {profiles: {default: {base_url: 'http://x/v1', model: m, temperature: 3}}}\n", nil, "models.profiles.default.temperature"},
		{"language", "language: klingon\n", nil, "config: language.default:"},
		{"env duration", "", map[string]string{"NADINE_LIMITS_TURN_TIMEOUT": "soon"}, "NADINE_LIMITS_TURN_TIMEOUT"},
		{"env bool", "", map[string]string{"NADINE_FEATURES_VISION_AGENT": "perhaps"}, "NADINE_FEATURES_VISION_AGENT"},
		{"thresholds", "memory: {name_low: 0.9, name_high: 0.5}\n", nil, "memory.name_low"},
		{"mqtt url", "mqtt: {url: ':::'}\n", nil, "mqtt.url"},
		{"yaml syntax", "engine: [\n", nil, "nadine.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := ""
			if tt.file != "" {
				path = writeConfig(t, tt.file)
			}
			_, err := loadConfigFrom(path, envOf(tt.env))
			if err == nil || (!strings.Contains(unlocated(err), tt.want) && !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("err = %v, want it to name %q", err, tt.want)
			}
		})
	}
}

// TestExampleConfigs keeps the shipped examples valid.
func TestExampleConfigs(t *testing.T) {
	cfg, err := loadConfigFrom("../examples/ollama.yaml", envOf(map[string]string{"HOME": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Engine != "graph" || cfg.Models.Roles["intent_classifier"] != "small" || cfg.Models.Roles["response"] != "response" {
		t.Errorf("example config = %+v", cfg.Models)
	}
	// Every model is one the file tells to pull (from the Ollama library:
	// no fine-tuned ones).
	b, err := os.ReadFile("../examples/ollama.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pullable := map[string]bool{}
	for _, m := range regexp.MustCompile(`ollama pull (\S+)`).FindAllStringSubmatch(string(b), -1) {
		pullable[m[1]] = true
	}
	for name, p := range cfg.Models.Profiles {
		if name != "default" && !pullable[p.Model] {
			t.Errorf("profile %s uses %q, which the example does not tell to pull", name, p.Model)
		}
	}
	for _, name := range []string{"small", "big", "response", "vision"} {
		if !cfg.Models.Profiles[name].Usable(envMap(nil)) {
			t.Errorf("profile %s of a local server must be usable without a key", name)
		}
	}
}

func TestConfigFiller(t *testing.T) {
	tests := []struct {
		name        string
		file        string
		env         map[string]string
		wantEnabled bool
		wantLines   map[nadine.Language][]string
	}{
		{"default", "", nil, true, nil},
		{"off in the file", "filler: {enabled: false}\n", nil, false, nil},
		{"off in the environment", "", map[string]string{"NADINE_FILLER_ENABLED": "false"}, false, nil},
		{"on again in the environment", "filler: {enabled: false}\n", map[string]string{"NADINE_FILLER_ENABLED": "true"}, true, nil},
		{"lines in the file", "filler:\n  lines:\n    fr: [\"Attends, je regarde.\", \"Une seconde !\"]\n    EN: [\"Hold on.\"]\n", nil, true,
			map[nadine.Language][]string{nadine.French: {"Attends, je regarde.", "Une seconde !"}, nadine.English: {"Hold on."}}},
		{"lines in the environment", "", map[string]string{"NADINE_FILLER_LINES_DE": "Moment, bitte. | Ich schaue nach, ja."}, true,
			map[nadine.Language][]string{nadine.German: {"Moment, bitte.", "Ich schaue nach, ja."}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := ""
			if tt.file != "" {
				path = writeConfig(t, tt.file)
			}
			env := map[string]string{"HOME": t.TempDir()}
			for k, v := range tt.env {
				env[k] = v
			}
			cfg, err := loadConfigFrom(path, envOf(env))
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg.Filler.Enabled != nil && *cfg.Filler.Enabled; got != tt.wantEnabled {
				t.Errorf("filler.enabled = %v, want %v", got, tt.wantEnabled)
			}
			if got := cfg.FillerLines(); !reflect.DeepEqual(got, tt.wantLines) {
				t.Errorf("filler lines = %q, want %q", got, tt.wantLines)
			}
		})
	}
}

func TestConfigFillerErrorsNameTheField(t *testing.T) {
	tests := []struct {
		name, file string
		env        map[string]string
		want       string
	}{
		{"unknown language", "filler: {lines: {tlh: [\"Qapla'\"]}}\n", nil, "config: filler.lines.tlh: unknown language"},
		{"no lines", "filler: {lines: {fr: []}}\n", nil, "config: filler.lines.fr: must list at least one line"},
		{"blank line", "filler: {lines: {en: [\"Hold on.\", \"  \"]}}\n", nil, "config: filler.lines.en[1]: empty line"},
		{"too long", "filler: {lines: {en: [\"" + strings.Repeat("a", 201) + "\"]}}\n", nil, "config: filler.lines.en[0]: longer than 200 characters"},
		{"twice", "filler: {lines: {fr: [\"Un instant.\"], FR: [\"Une seconde.\"]}}\n", nil, "config: filler.lines.fr: French is already given"},
		{"bool", "", map[string]string{"NADINE_FILLER_ENABLED": "sometimes"}, "NADINE_FILLER_ENABLED"},
		{"unknown field", "filler: {enable: false}\n", nil, "enable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := ""
			if tt.file != "" {
				path = writeConfig(t, tt.file)
			}
			_, err := loadConfigFrom(path, envOf(tt.env))
			if err == nil || (!strings.Contains(unlocated(err), tt.want) && !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("err = %v, want it to name %q", err, tt.want)
			}
		})
	}
}
