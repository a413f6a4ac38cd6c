package config

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoadConfig loads configuration files and environment overrides as
// operators write them (and mistype them): nothing panics, an error names
// what is wrong, and a configuration that loads is valid and prints.
func FuzzLoadConfig(f *testing.F) {
	example, err := os.ReadFile("../examples/ollama.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []struct{ yaml, env string }{
		{string(example), ""},
		{"engine: react\nlanguage: fr\n", "NADINE_ENGINE=graph\nNADINE_MODELS_FALLBACK=big,small"},
		{"models:\n  profiles:\n    small:\n      base_url: http://localhost:11434/v1\n      model: qwen2.5:7b\n      timeout: 30s\n  roles:\n    response: small\n", "NADINE_MODELS_PROFILES_SMALL_TEMPERATURE=0.3"},
		{"limits:\n  max_steps: 8\n  speak_timeout: 30s\nmemory:\n  window: 20\n  stride: 14\n", "NADINE_LIMITS_MAX_STEPS=-1"},
		{"filler:\n  lines:\n    fr: [\"Un instant, je regarde.\"]\n", "NADINE_FILLER_LINES_DE=Einen Moment|Ich schaue nach"},
		{"http:\n  addr: 0.0.0.0:8080\n", "NADINE_HTTP_TOKEN=secret"},
		{"engine: [not, a, string]\n", ""},
		{"unknown_field: 1\n", ""},
		{"", "NADINE_MQTT_URL=ftp://robot\nNADINE_LANGUAGE=klingon"},
		{"visual:\n  similarity_threshold: 1.5\n", "NADINE_MEMORY_NAME_HIGH=abc"},
	} {
		f.Add(s.yaml, s.env)
	}
	f.Fuzz(func(t *testing.T, yaml, env string) {
		vars := map[string]string{"HOME": t.TempDir()}
		for _, line := range strings.Split(env, "\n") {
			if k, v, ok := strings.Cut(line, "="); ok && k != "" && k != "HOME" {
				vars[k] = v
			}
		}
		getenv := envMap(vars)
		path := ""
		if yaml != "" {
			path = filepath.Join(t.TempDir(), "nadine.yaml")
			if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		cfg, err := Load(path, getenv)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "config: ") {
				t.Fatalf("error %q does not start with config:", err)
			}
			return
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("a loaded configuration is invalid: %v", err)
		}
		if err := Print(io.Discard, cfg, getenv); err != nil {
			t.Fatalf("printConfig: %v", err)
		}
	})
}
