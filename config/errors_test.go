package config

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/configtest"
	"go.yaml.in/yaml/v3"
)

// errorLines splits a joined configuration error into its lines.
func errorLines(err error) []string {
	if err == nil {
		return nil
	}
	return strings.Split(err.Error(), "\n")
}

// whereRE matches where an error says a value came from: "config: FILE:LINE: "
// or "config: $VARIABLE: ".
var whereRE = regexp.MustCompile(`(?m)^config: (\S+:\d+|\$[A-Z0-9_]+): `)

// unlocated is an error's text without where each value came from, for
// tests of the messages alone.
func unlocated(err error) string {
	if err == nil {
		return ""
	}
	return whereRE.ReplaceAllString(err.Error(), "config: ")
}

// TestConfigRules gives every rule of configRules a configuration that
// breaks it, and checks that the error blames that rule's field and no
// other.
func TestConfigRules(t *testing.T) {
	testRules(t, configRules, configtest.Rules())
	// The defaults break no rule.
	if _, err := loadConfigFrom("", envOf(map[string]string{"HOME": t.TempDir()})); err != nil {
		t.Errorf("defaults: %v", err)
	}
}

// testRules checks that each case's error blames its path and no other, and
// that every rule has a failing case.
func testRules(t *testing.T, rules []rule, tests []configtest.RuleCase) {
	t.Helper()
	fired := make([]bool, len(rules))
	for _, tt := range tests {
		t.Run(tt.Path, func(t *testing.T) {
			file := writeConfig(t, tt.File)
			cfg, err := loadConfigFrom(file, envOf(map[string]string{"HOME": t.TempDir()}))
			lines := errorLines(err)
			// The file gave the value: the error says where.
			at := regexp.MustCompile(`^config: ` + regexp.QuoteMeta(file) + `:\d+: ` + regexp.QuoteMeta(tt.Path) + `: `)
			if len(lines) != 1 || !at.MatchString(lines[0]) || !strings.Contains(lines[0], tt.Want) {
				t.Fatalf("err = %v, want only %q blamed, at %s:LINE, with %q", err, tt.Path, file, tt.Want)
			}
			for i, r := range rules {
				for _, f := range fieldsAt(&cfg, r.path) {
					if r.check(f) != "" {
						fired[i] = true
					}
				}
			}
		})
	}
	for i, r := range rules {
		if !fired[i] {
			t.Errorf("rule %d (%s) has no failing case", i, r.path)
		}
	}
}

// TestConfigFileErrors: unknown fields (with the closest known one), wrong
// types and invalid durations are reported with the file, the line and
// the full path, all at once, before anything is decoded.
func TestConfigFileErrors(t *testing.T) {
	tests := []struct {
		name, file string
		want       []string
	}{
		{"typo", "mqtt:\n  prefx: robot1\n", []string{"nadine.yaml:2: mqtt.prefx: unknown field (did you mean mqtt.prefix?)"}},
		{"typo at the top", "engien: react\n", []string{"nadine.yaml:1: engien: unknown field (did you mean engine?)"}},
		// In the same pass, what validation says of the rest: the profile
		// has neither model nor base URL.
		{"typo in a profile", "models: {profiles: {big: {modle: x}}}\n", []string{"models.profiles.big.modle: unknown field (did you mean models.profiles.big.model?)",
			"nadine.yaml:1: models.profiles.big.model: must not be empty", "nadine.yaml:1: models.profiles.big.base_url: must be an http(s) URL"}},
		{"field at the wrong level", "prefix: robot1\n", []string{"prefix: unknown field (did you mean mqtt.prefix or robots[*].prefix?)"}},
		{"unknown, nothing close", "colour: blue\n", []string{"colour: unknown field"}},
		{"integer", "limits:\n  max_steps: lots\n", []string{`nadine.yaml:2: limits.max_steps: "lots" is not an integer`}},
		{"integer, not a fraction", "limits: {max_steps: 2.5}\n", []string{`limits.max_steps: "2.5" is not an integer`}},
		{"number", "memory: {name_high: high}\n", []string{`memory.name_high: "high" is not a number`}},
		{"boolean", "features: {vision_agent: perhaps}\n", []string{`features.vision_agent: "perhaps" is not a boolean (true or false)`}},
		{"duration", "limits: {turn_timeout: soon}\n", []string{`limits.turn_timeout: invalid duration "soon" (use 30s, 2m, 500ms)`}},
		{"duration in a profile", "models: {profiles: {default: {timeout: [1]}}}\n", []string{"models.profiles.default.timeout: must be a duration such as 30s",
			"models.profiles.default.model: must not be empty", "models.profiles.default.base_url: must be an http(s) URL"}},
		{"list", "models: {fallback: big}\n", []string{`models.fallback: must be a list, not "big"`}},
		{"mapping", "mqtt: robot\n", []string{`mqtt: must be a mapping of fields, not "robot"`}},
		{"text", "engine: [react]\n", []string{"engine: must be a text, not a list"}},
		{"several at once", "engien: react\nlimits: {max_steps: lots}\nmqtt: {prefx: a}\n",
			[]string{"engien: unknown field", "limits.max_steps:", "mqtt.prefx: unknown field"}},
		{"yaml syntax", "engine: [\n", []string{"nadine.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadConfigFrom(writeConfig(t, tt.file), envOf(map[string]string{"HOME": t.TempDir()}))
			if err == nil {
				t.Fatal("no error")
			}
			if len(errorLines(err)) != len(tt.want) {
				t.Errorf("%d errors, want %d:\n%v", len(errorLines(err)), len(tt.want), err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v\nwant %q", err, w)
				}
			}
		})
	}
	// Comments only, or nothing: the defaults.
	for _, body := range []string{"", "# nothing yet\n", "---\n"} {
		if _, err := loadConfigFrom(writeConfig(t, body), envOf(map[string]string{"HOME": t.TempDir()})); err != nil {
			t.Errorf("file %q: %v", body, err)
		}
	}
}

// TestNegativeDurationsRefused sets every duration field of the
// configuration (those added later too) to -1s through the environment
// and expects an error naming it.
func TestNegativeDurationsRefused(t *testing.T) {
	var paths []string
	for _, p := range configPaths(reflect.TypeOf(Config{}), "") {
		typ, ok := typeAt(reflect.TypeOf(Config{}), p)
		if ok && typ == durationType {
			paths = append(paths, strings.ReplaceAll(p, "*", "default"))
		}
	}
	if len(paths) < 4 {
		t.Fatalf("found only %d duration fields: %q", len(paths), paths)
	}
	for _, p := range paths {
		name := "NADINE_" + strings.ToUpper(strings.ReplaceAll(p, ".", "_"))
		_, err := loadConfigFrom("", envOf(map[string]string{"HOME": t.TempDir(), name: "-1s"}))
		if want := "config: $" + name + ": " + p + ": -1s is negative"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s=-1s: err = %v, want %q", name, err, want)
		}
	}
	_, err := loadConfigFrom(writeConfig(t, "limits: {turn_timeout: -5s}\n"), envOf(map[string]string{"HOME": t.TempDir()}))
	if err == nil || !strings.Contains(unlocated(err), "config: limits.turn_timeout: -5s is negative") {
		t.Errorf("turn_timeout: -5s in the file: %v", err)
	}
}

// typeAt is the type of the field at a configPaths path.
func typeAt(t reflect.Type, path string) (reflect.Type, bool) {
	for _, seg := range strings.Split(path, ".") {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		seg = strings.TrimSuffix(seg, "[*]")
		switch {
		case seg == "*" && t.Kind() == reflect.Map:
			t = t.Elem()
		case t.Kind() == reflect.Struct:
			found := false
			for i := 0; i < t.NumField(); i++ {
				if yamlName(t.Field(i)) == seg {
					t, found = t.Field(i).Type, true
					break
				}
			}
			if !found {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t, true
}

// TestConfigEnvironment: the environment names any profile, its type
// errors name the variable and the field, and unknown NADINE_ variables
// become warnings with the closest known name.
func TestConfigEnvironment(t *testing.T) {
	cfg, err := loadConfigFrom("", envOf(map[string]string{
		"HOME": t.TempDir(),
		"NADINE_MODELS_PROFILES_LOCAL_AI_BASE_URL":    "http://localhost:11434/v1",
		"NADINE_MODELS_PROFILES_LOCAL_AI_MODEL":       "qwen3:8b",
		"NADINE_MODELS_PROFILES_LOCAL_AI_API_KEY_ENV": "NADINE_LOCAL_KEY",
		"NADINE_MODELS_PROFILES_LOCAL_AI_TIMEOUT":     "20s",
		"NADINE_MODELS_ROLES_RESPONSE":                "local_ai",
		"NADINE_MODELS_FALLBACK":                      "local_ai, default",
		"NADINE_LOCAL_KEY":                            "secret",
		"NADINE_CONFIG":                               "",
		"NADINE_MQTT_PASSWORD":                        "pw",
		"NADINE_HTTP_TOKEN":                           "tok",
		"NADINE_FILLER_LINES_FR":                      "Un instant, je regarde.|Une seconde !",
		"NADINE_ENGIN":                                "graph",
		"NADINE_MODELS_PROFILES_DEFAULT_MODDEL":       "gpt-4o",
		"NADINE_TOTALLY_UNRELATED":                    "1",
	}))
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.Models.Profiles["local_ai"]
	if p.BaseURL != "http://localhost:11434/v1" || p.Model != "qwen3:8b" || p.APIKeyEnv != "NADINE_LOCAL_KEY" || time.Duration(p.Timeout) != 20*time.Second {
		t.Errorf("profile from the environment = %+v", p)
	}
	if cfg.Models.Roles["response"] != "local_ai" || strings.Join(cfg.Models.Fallback, ",") != "local_ai,default" {
		t.Errorf("roles %v, fallback %v", cfg.Models.Roles, cfg.Models.Fallback)
	}
	if got := cfg.Filler.Lines["fr"]; len(got) != 2 || got[0] != "Un instant, je regarde." {
		t.Errorf("filler lines = %q", got)
	}
	if cfg.Models.Profiles["default"].Model != "gpt-5.4-mini" {
		t.Errorf("the misspelt variable changed the default profile: %+v", cfg.Models.Profiles["default"])
	}
	sort.Strings(cfg.warnings)
	want := []string{
		"config: NADINE_ENGIN is not a configuration variable and is ignored (did you mean NADINE_ENGINE?)",
		"config: NADINE_MODELS_PROFILES_DEFAULT_MODDEL is not a configuration variable and is ignored (did you mean NADINE_MODELS_PROFILES_DEFAULT_MODEL?)",
		"config: NADINE_TOTALLY_UNRELATED is not a configuration variable and is ignored",
	}
	if !reflect.DeepEqual(cfg.warnings, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(cfg.warnings, "\n"), strings.Join(want, "\n"))
	}

	tests := []struct{ name, value, want string }{
		{"NADINE_LIMITS_MAX_STEPS", "lots", `config: $NADINE_LIMITS_MAX_STEPS: limits.max_steps: "lots" is not an integer`},
		{"NADINE_FEATURES_VISION_AGENT", "perhaps", `config: $NADINE_FEATURES_VISION_AGENT: features.vision_agent: "perhaps" is not a boolean`},
		{"NADINE_MEMORY_NAME_HIGH", "1.7", "config: $NADINE_MEMORY_NAME_HIGH: memory.name_high: 1.7 is not between 0 and 1"},
		{"NADINE_MODELS_PROFILES_DEFAULT_TEMPERATURE", "hot", `config: $NADINE_MODELS_PROFILES_DEFAULT_TEMPERATURE: models.profiles.default.temperature: "hot" is not a number`},
	}
	for _, tt := range tests {
		_, err := loadConfigFrom("", envOf(map[string]string{"HOME": t.TempDir(), tt.name: tt.value}))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s=%s: err = %v, want %q", tt.name, tt.value, err, tt.want)
		}
	}
}

// TestFieldChecksAreGeneric: a configuration struct the checks have never
// seen (as another area's <area>.go adds) gets the same messages.
func TestFieldChecksAreGeneric(t *testing.T) {
	type arm struct {
		Joints []string `yaml:"joints"`
		Speed  float64  `yaml:"speed"`
		Settle Duration `yaml:"settle"`
	}
	type area struct {
		Arms    map[string]arm `yaml:"arms"`
		Enabled *bool          `yaml:"enabled"`
		Retries int            // no tag: known by its lower-cased name, as yaml.v3 does
	}
	var doc yaml.Node
	src := "arms:\n  left: {joints: [a, b], sped: 2, settle: soon}\nenabled: maybe\nretries: 2.5\n"
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	checkNode(doc.Content[0], reflect.TypeOf(area{}), "motion", func(n *yaml.Node, path, msg string) {
		got = append(got, fmt.Sprintf("%d: %s: %s", n.Line, path, msg))
	})
	want := []string{
		"2: motion.arms.left.sped: unknown field (did you mean motion.arms.left.speed?)",
		`2: motion.arms.left.settle: invalid duration "soon" (use 30s, 2m, 500ms)`,
		`3: motion.enabled: "maybe" is not a boolean (true or false)`,
		`4: motion.retries: "2.5" is not an integer`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var neg []string
	checkDurations(reflect.ValueOf(area{Arms: map[string]arm{"left": {Settle: Duration(-time.Second)}}}), "motion", func(path, format string, args ...any) {
		neg = append(neg, path+": "+fmt.Sprintf(format, args...))
	})
	if len(neg) != 1 || !strings.HasPrefix(neg[0], "motion.arms.left.settle: -1s is negative") {
		t.Errorf("negative durations: %q", neg)
	}
}

// TestProfileRetries: max_retries counts the failover pool's retries on
// the profile; unset is the default, 0 is none.
func TestProfileRetries(t *testing.T) {
	zero, five := 0, 5
	tests := []struct {
		p    ProfileConfig
		want int
	}{{ProfileConfig{}, defaultRetries}, {ProfileConfig{MaxRetries: &zero}, 0}, {ProfileConfig{MaxRetries: &five}, 5}}
	for _, tt := range tests {
		if got := tt.p.Retries(); got != tt.want {
			t.Errorf("retries of %v = %d, want %d", tt.p.MaxRetries, got, tt.want)
		}
	}
}
