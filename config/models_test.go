package config

import (
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/failover"
)

// TestFailoverConfigDefaults: every role has attempt timeouts (a
// first-token deadline for the streamed ones), the breaker its defaults,
// the turn a 10 s budget and a filler after 2 s of silence.
func TestFailoverConfigDefaults(t *testing.T) {
	cfg, err := Load("", envMap(map[string]string{"HOME": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range roleNames {
		got := cfg.RoleTimeouts(r)
		if got.Attempt <= 0 || got.FirstToken > got.Attempt {
			t.Errorf("%s: timeouts %+v", r, got)
		}
	}
	for _, r := range []string{"react_agent", "response"} {
		if cfg.RoleTimeouts(r).FirstToken <= 0 {
			t.Errorf("%s has no first-token deadline", r)
		}
	}
	if got := cfg.RoleTimeouts("intent_classifier"); got.Attempt > 5*time.Second {
		t.Errorf("intent_classifier attempt timeout %v: a small role gets seconds", got.Attempt)
	}
	if cfg.TurnTimeout() != 10*time.Second || cfg.FirstSpeech() != 2*time.Second {
		t.Errorf("turn %v, first speech %v", cfg.TurnTimeout(), cfg.FirstSpeech())
	}
	want := failover.BreakerConfig{Failures: failover.DefaultFailures, ServerFailures: failover.DefaultServerFailures, Cooldown: failover.DefaultCooldown, ProbeTimeout: failover.DefaultProbeTimeout}
	if b := cfg.Breaker(); b != want {
		t.Errorf("breaker = %+v, want the package's defaults %+v (shown by nadine config)", b, want)
	}
	if got := cfg.Models.Profiles["default"].Retries(); got != defaultRetries {
		t.Errorf("retries = %d", got)
	}
}

// TestFailoverConfigFileAndEnvironment: a role's timeouts from the file
// keep the defaults of the fields it does not give; every field has an
// environment override.
func TestFailoverConfigFileAndEnvironment(t *testing.T) {
	path := writeConfig(t, `
models:
  timeouts:
    response: {first_token: 6s}
    intent_classifier: {attempt: 1500ms}
  breaker: {failures: 4}
limits: {first_speech: 1.5s}
`)
	cfg, err := Load(path, envMap(map[string]string{
		"HOME": t.TempDir(),
		"NADINE_MODELS_TIMEOUTS_APPRAISAL_ATTEMPT":       "2s",
		"NADINE_MODELS_TIMEOUTS_REACT_AGENT_FIRST_TOKEN": "5s",
		"NADINE_MODELS_BREAKER_COOLDOWN":                 "8s",
		"NADINE_MODELS_BREAKER_PROBE_TIMEOUT":            "3s",
		"NADINE_LIMITS_TURN_TIMEOUT":                     "12s",
		"NADINE_MODELS_PROFILES_DEFAULT_MAX_RETRIES":     "0",
	}))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		got, want time.Duration
	}{
		{"response first token from the file", cfg.RoleTimeouts("response").FirstToken, 6 * time.Second},
		{"response attempt: the default kept", cfg.RoleTimeouts("response").Attempt, time.Duration(defaultRoleTimeouts["response"].Attempt)},
		{"intent attempt from the file", cfg.RoleTimeouts("intent_classifier").Attempt, 1500 * time.Millisecond},
		{"appraisal from the environment", cfg.RoleTimeouts("appraisal").Attempt, 2 * time.Second},
		{"react_agent first token from the environment", cfg.RoleTimeouts("react_agent").FirstToken, 5 * time.Second},
		{"cooldown", cfg.Breaker().Cooldown, 8 * time.Second},
		{"probe timeout", cfg.Breaker().ProbeTimeout, 3 * time.Second},
		{"turn timeout", cfg.TurnTimeout(), 12 * time.Second},
		{"first speech", cfg.FirstSpeech(), 1500 * time.Millisecond},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if cfg.Breaker().Failures != 4 || cfg.Models.Profiles["default"].Retries() != 0 {
		t.Errorf("failures %d, retries %d", cfg.Breaker().Failures, cfg.Models.Profiles["default"].Retries())
	}
}

// loadWith loads a configuration file (none when empty) with env and a
// fresh HOME.
func loadWith(t *testing.T, file string, env map[string]string) (Config, error) {
	t.Helper()
	path := ""
	if file != "" {
		path = writeConfig(t, file)
	}
	vars := map[string]string{"HOME": t.TempDir()}
	maps.Copy(vars, env)
	return Load(path, envMap(vars))
}

func TestFailoverConfigErrorsNameTheField(t *testing.T) {
	tests := []struct {
		name, file string
		env        map[string]string
		want       string
	}{
		{"unknown role", "models: {timeouts: {poet: {attempt: 2s}}}\n", nil, "models.timeouts.poet"},
		{"negative attempt", "models: {timeouts: {appraisal: {attempt: -2s}}}\n", nil, "models.timeouts.appraisal.attempt"},
		{"first token past the attempt", "models: {timeouts: {response: {attempt: 3s, first_token: 5s}}}\n", nil, "models.timeouts.response.first_token"},
		{"negative failures", "models: {breaker: {failures: -1}}\n", nil, "models.breaker.failures"},
		{"negative cooldown", "", map[string]string{"NADINE_MODELS_BREAKER_COOLDOWN": "-1s"}, "models.breaker.cooldown"},
		{"negative probe timeout", "models: {breaker: {probe_timeout: -1s}}\n", nil, "models.breaker.probe_timeout"},
		{"negative retries", "models: {profiles: {default: {base_url: 'http://x/v1', model: m, max_retries: -2}}}\n", nil, "models.profiles.default.max_retries"},
		{"first speech past the budget", "limits: {turn_timeout: 2s, first_speech: 3s}\n", nil, "limits.first_speech"},
		{"negative turn timeout", "limits: {turn_timeout: -1s}\n", nil, "limits.turn_timeout"},
		{"env duration", "", map[string]string{"NADINE_MODELS_TIMEOUTS_RESPONSE_FIRST_TOKEN": "soon"}, "NADINE_MODELS_TIMEOUTS_RESPONSE_FIRST_TOKEN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadWith(t, tt.file, tt.env)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to name %q", err, tt.want)
			}
		})
	}
}
