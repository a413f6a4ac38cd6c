package config

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/failover"
	"github.com/nadine-robot/nadine/mqtt"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/tools"
	"github.com/nadine-robot/nadine/visual"
	"github.com/nadine-robot/nadine/web"
)

// Config is the whole configuration (docs/configuration.md); env.go says
// which NADINE_ variable overrides each field.
type Config struct {
	// Engine is react (ReAct with tools), graph (the multi-agent graph) or offline.
	Engine string `yaml:"engine"`
	// DataDir holds the database, the song library and the scenes.
	DataDir string `yaml:"data_dir"`
	// Language is the session language at start and the language policy.
	Language LanguageConfig `yaml:"language"`
	// Session bounds an interaction (the idle timeout).
	Session SessionConfig `yaml:"session"`
	// Turns sets when a turn starts (preemptive turns, turns.go).
	Turns TurnsConfig `yaml:"turns"`
	// Place says where the robot stands, for the prompt's PHYSICAL
	// SITUATION ("at MIRALab, University of Geneva, in Switzerland").
	Place      string           `yaml:"place"`
	Models     ModelsConfig     `yaml:"models"`
	Embeddings EmbeddingsConfig `yaml:"embeddings"`
	Features   FeaturesConfig   `yaml:"features"`
	Limits     LimitsConfig     `yaml:"limits"`
	Memory     MemoryConfig     `yaml:"memory"`
	Knowledge  KnowledgeConfig  `yaml:"knowledge"`
	Visual     VisualConfig     `yaml:"visual"`
	Tools      ToolsConfig      `yaml:"tools"`
	Filler     FillerConfig     `yaml:"filler"`
	Speech     SpeechConfig     `yaml:"speech"`
	MQTT       MQTTConfig       `yaml:"mqtt"`
	HTTP       HTTPConfig       `yaml:"http"`
	Log        LogConfig        `yaml:"log"`
	Store      StoreConfig      `yaml:"store"`
	// Telemetry: metrics, turn records, traces (telemetry.go).
	Telemetry TelemetryConfig `yaml:"telemetry"`

	// PlaceTranslations says the place in the other languages, for the
	// offline engine's "where are you?" (see persona.go).
	PlaceTranslations PlaceTranslationsConfig `yaml:"place_translations"`

	// Robots are the robots one `nadine serve` serves, each on its own
	// topic prefix (see robots.go); empty, one robot on mqtt.prefix.
	Robots Robots `yaml:"robots"`

	// warnings are what loading and the pre-flight noticed but accepted,
	// logged at start.
	warnings []string
	// origin says where each field given was set, by path: "FILE:LINE"
	// or "$VARIABLE"; nil when the configuration could not be read.
	origin map[string]string
}

// ModelsConfig holds the profiles, each role's profile, and the fallback order.
type ModelsConfig struct {
	Profiles map[string]ProfileConfig `yaml:"profiles"`
	Roles    map[string]string        `yaml:"roles"`
	Fallback []string                 `yaml:"fallback"`
	// Timeouts bound each role's attempts, Breaker sets when a failing
	// profile is skipped (see models.go).
	Timeouts map[string]RoleTimeoutConfig `yaml:"timeouts"`
	Breaker  BreakerConfig                `yaml:"breaker"`
	// WarmUp sends one tiny request to every used profile at start (local
	// servers load models lazily).
	WarmUp bool `yaml:"warm_up"`
}

// ProfileConfig is one OpenAI-compatible model endpoint.
type ProfileConfig struct {
	BaseURL     string   `yaml:"base_url"`
	Model       string   `yaml:"model"`
	APIKeyEnv   string   `yaml:"api_key_env"` // name of the variable holding the key
	APIKey      string   `yaml:"api_key"`     // the key itself (prefer api_key_env)
	Temperature *float64 `yaml:"temperature"`
	Timeout     Duration `yaml:"timeout"`
	MaxTokens   int      `yaml:"max_tokens"`
	MaxRetries  *int     `yaml:"max_retries"`
	// Structured is how the server constrains answers (docs/speech.md); ""
	// is auto: tools on api.openai.com, json_schema elsewhere.
	Structured string `yaml:"structured"`
}

// EmbeddingsConfig picks lexical (built in) or the embeddings role's model.
type EmbeddingsConfig struct {
	Provider   string `yaml:"provider"` // auto | lexical | openai
	Model      string `yaml:"model"`
	Dimensions int    `yaml:"dimensions"`
}

// FeaturesConfig switches optional agents (the graph's flags).
type FeaturesConfig struct {
	MemoryAgents *bool `yaml:"memory_agents"`
	VisionAgent  *bool `yaml:"vision_agent"`
	// Contextualize (ReAct) rewrites a follow-up into a standalone question
	// before retrieval; off, the reply waits on one model call less.
	Contextualize *bool `yaml:"contextualize"`
	// SkipStandalone (ReAct) leaves an input that refers to nothing in the
	// history as said: one model call in sequence instead of two.
	SkipStandalone *bool `yaml:"skip_standalone"`
	// Speculate starts model calls before they are known to be wanted and
	// keeps them when they are (docs/architecture.md#speculation).
	Speculate *bool `yaml:"speculate"`
	// SearchSummary (graph) has search_answer sum the results up before the
	// response: one more model call in sequence, so off by default.
	SearchSummary bool `yaml:"search_summary"`
	// SeedWiring (graph) runs the graph's original sequential wiring instead of the
	// parallel one: slower, for comparison (nadine bench).
	SeedWiring bool `yaml:"seed_wiring"`
}

// LimitsConfig bounds what one turn may cost.
type LimitsConfig struct {
	MaxInputChars int      `yaml:"max_input_chars"`
	MaxSteps      int      `yaml:"max_steps"`      // ReAct steps and graph steps per turn
	MaxToolCalls  int      `yaml:"max_tool_calls"` // ReAct tool calls per turn; then the agent answers with what it has
	ParseRetries  int      `yaml:"parse_retries"`  // unparseable model answers fed back
	TurnTimeout   Duration `yaml:"turn_timeout"`   // whole turn, all engines
	FirstSpeech   Duration `yaml:"first_speech"`   // silence after which a filler line is said
	BehaviourWait Duration `yaml:"behaviour_wait"` // the behaviour tool waits 2 s by default
	SpeakTimeout  Duration `yaml:"speak_timeout"`  // listening resumes if end_speak never comes
	// Heard transcripts: see inbound.go.
	TranscriptMaxAge Duration `yaml:"transcript_max_age"` // older ones are not answered
	Queue            int      `yaml:"queue"`              // heard transcripts waiting; the oldest goes
	Backlog          int      `yaml:"backlog"`            // heard transcripts waiting before the newest goes first
}

// MemoryConfig sets the conversation window and name matching.
type MemoryConfig struct {
	Window            int     `yaml:"window"`             // messages kept (20)
	Stride            int     `yaml:"stride"`             // messages between stored chunks (14)
	TopK              int     `yaml:"top_k"`              // memories in the ReAct prompt (5)
	NameHigh          float64 `yaml:"name_high"`          // similarity for a strong name match
	NameLow           float64 `yaml:"name_low"`           // similarity below which a name is new
	ConversationLimit int     `yaml:"conversation_limit"` // graph: messages kept in state
}

// KnowledgeConfig points at the knowledge base sources.
type KnowledgeConfig struct {
	Dir  string `yaml:"dir"`   // folder ingested at start when the base is empty; default: the built-in base
	TopK int    `yaml:"top_k"` // chunks in the ReAct prompt (3)
}

// VisualConfig configures the graph's visual memory.
type VisualConfig struct {
	ScenesDir           string  `yaml:"scenes_dir"`
	SimilarityThreshold float64 `yaml:"similarity_threshold"`
	RetrievalAlpha      float64 `yaml:"retrieval_alpha"`
	ClipProfile         string  `yaml:"clip_profile"` // profile serving a CLIP text encoder on /embeddings
	ClipModel           string  `yaml:"clip_model"`
	CaptureDir          string  `yaml:"capture_dir"`
}

// ToolsConfig holds the tools' services; a tool is registered only when the
// variable its *_env field names holds a key.
type ToolsConfig struct {
	SerperKeyEnv      string `yaml:"serper_api_key_env"`
	SerperURL         string `yaml:"serper_url"`
	OpenWeatherKeyEnv string `yaml:"openweathermap_api_key_env"`
	OpenWeatherURL    string `yaml:"openweathermap_url"`
	SongsDir          string `yaml:"songs_dir"`
	TranslateURL      string `yaml:"translate_url"` // LibreTranslate-compatible; empty = translate with the model
	TranslateKeyEnv   string `yaml:"translate_api_key_env"`
}

// FillerConfig sets the short lines Nadine says while a turn waits on a slow
// tool, so that the robot is not silent.
type FillerConfig struct {
	// Enabled says filler lines (true by default; false turns them off).
	Enabled *bool `yaml:"enabled"`
	// Lines replaces the built-in lines of the languages it names; a variable
	// separates them with "|", as a line may hold a comma.
	Lines map[string][]string `yaml:"lines" envsep:"|"`
}

// SpeechConfig bounds what one turn says: the reply is cut at a sentence
// boundary, and the history keeps what was said.
type SpeechConfig struct {
	MaxSentences int `yaml:"max_sentences"` // reply sentences said (2)
	MaxWords     int `yaml:"max_words"`     // words said (60); the first sentence always goes out whole
}

// MQTTConfig connects to the robot's broker.
type MQTTConfig struct {
	URL         string `yaml:"url"` // empty: start an embedded broker on Listen
	Listen      string `yaml:"listen"`
	ClientID    string `yaml:"client_id"`
	Username    string `yaml:"username"`
	PasswordEnv string `yaml:"password_env"`
	Prefix      string `yaml:"prefix"`
	CAFile      string `yaml:"ca_file"`
	CertFile    string `yaml:"cert_file"`
	KeyFile     string `yaml:"key_file"`
	Insecure    bool   `yaml:"insecure_skip_verify"`
	// BrokerUsers are the only clients the embedded broker accepts (see
	// privacy.go); empty, any client may connect.
	BrokerUsers BrokerUsers `yaml:"broker_users"`
	// The embedded broker's limits (broker.go; 0 is refused).
	MaxPacketSize    int      `yaml:"max_packet_size"`
	MaxClients       int      `yaml:"max_clients"`
	MaxInflight      int      `yaml:"max_inflight"`
	MaxQueued        int      `yaml:"max_queued"`
	MaxQueuedBytes   int      `yaml:"max_queued_bytes"`
	MaxRetained      int      `yaml:"max_retained"`
	MaxRetainedBytes int      `yaml:"max_retained_bytes"`
	WriteTimeout     Duration `yaml:"write_timeout"`
}

// HTTPConfig serves the web monitor and the JSON API.
type HTTPConfig struct {
	Addr     string `yaml:"addr"` // "off" disables
	TokenEnv string `yaml:"token_env"`
	// MaxStreams caps the monitor's open event streams (503 beyond).
	MaxStreams int `yaml:"max_streams"`
	// MaxTokenFailures is how many wrong or missing tokens a client may
	// send per minute before it gets 429.
	MaxTokenFailures int `yaml:"max_token_failures"`
}

// LogConfig sets logging.
type LogConfig struct {
	Level  string `yaml:"level"`  // debug | info | warn | error
	Format string `yaml:"format"` // text | json
	// Content puts what people say and Nadine answers in the logs (as level
	// debug does); by default lines carry ids, durations and counts only.
	Content bool `yaml:"content"`
}

// Duration is a time.Duration written as "30s" in YAML.
type Duration time.Duration

// UnmarshalYAML parses "30s", "1m" or a number of seconds.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("must be a duration such as 30s")
	}
	v, err := parseDuration(n.Value)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// MarshalYAML writes the duration as "30s".
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

func parseDuration(s string) (Duration, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return Duration(f * float64(time.Second)), nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q (use 30s, 2m, 500ms)", s)
	}
	return Duration(v), nil
}

// RoleNames are the roles a profile can be assigned to, in order.
func RoleNames() []string { return slices.Clone(roleNames) }

// roleNames are the roles a profile can be assigned to.
var roleNames = []string{
	"contextualizer", "react_agent", "intent_classifier", "memory_update", "appraisal",
	"context_summary", "orchestrator", "search_router", "search_answer", "vision",
	"response", "translator", "songwriter", "embeddings",
}

// Default is the ReAct setup, every role on one OpenAI profile.
func Default(getenv func(string) string) Config {
	one, retries := 1.0, defaultRetries
	base := getenv("OPENAI_BASE_URL")
	if base == "" {
		base = "https://api.openai.com/v1"
	}
	roles := map[string]string{}
	for _, r := range roleNames {
		roles[r] = "default"
	}
	// One variable per flag: YAML decodes into the pointed-to value, so
	// flags sharing one would change together ("speculate: false" turned
	// the memory agents and the contextualizer off too).
	yes := func() *bool { v := true; return &v }
	return Config{
		Engine:   "react",
		DataDir:  defaultDataDir(getenv),
		Language: defaultLanguage(),
		Session:  defaultSession(),
		Turns:    defaultTurns(),
		Models: ModelsConfig{
			Profiles: map[string]ProfileConfig{"default": {
				BaseURL: base, Model: "gpt-5.4-mini", APIKeyEnv: "OPENAI_API_KEY",
				Temperature: &one, Timeout: Duration(60 * time.Second), MaxRetries: &retries, Structured: string(nadine.StructuredAuto),
			}},
			Roles:    roles,
			Timeouts: defaultTimeouts(),
			Breaker: BreakerConfig{Failures: failover.DefaultFailures, ServerFailures: failover.DefaultServerFailures, Cooldown: Duration(failover.DefaultCooldown),
				ProbeTimeout: Duration(failover.DefaultProbeTimeout)},
		},
		Embeddings: EmbeddingsConfig{Provider: "auto", Model: "text-embedding-3-large"},
		Features:   FeaturesConfig{MemoryAgents: yes(), VisionAgent: yes(), Speculate: yes(), Contextualize: yes(), SkipStandalone: yes()},
		Filler:     FillerConfig{Enabled: yes()},
		Speech:     SpeechConfig{MaxSentences: dialogue.DefaultMaxSentences, MaxWords: dialogue.DefaultMaxWords},
		Limits: LimitsConfig{MaxInputChars: dialogue.DefaultMaxInputChars, MaxSteps: 8, MaxToolCalls: 4, ParseRetries: 3,
			TurnTimeout: Duration(dialogue.DefaultTurnTimeout), FirstSpeech: Duration(dialogue.DefaultFirstSpeech), BehaviourWait: Duration(tools.DefaultBehaviourWait),
			SpeakTimeout: Duration(30 * time.Second), TranscriptMaxAge: Duration(robot.DefaultMaxAge), Queue: robot.DefaultQueue,
			Backlog: robot.DefaultBacklog},
		Memory: MemoryConfig{Window: dialogue.DefaultHistoryWindow, Stride: dialogue.DefaultHistoryStride, TopK: 5,
			NameHigh: agents.DefaultNameHigh, NameLow: agents.DefaultNameLow, ConversationLimit: agents.DefaultConversationLimit},
		Knowledge: KnowledgeConfig{TopK: nadine.DefaultKnowledgeK},
		Visual:    VisualConfig{SimilarityThreshold: visual.DefaultThreshold, RetrievalAlpha: visual.DefaultAlpha},
		Tools: ToolsConfig{SerperKeyEnv: "SERPER_API_KEY", SerperURL: tools.DefaultSerperURL,
			OpenWeatherKeyEnv: "OPENWEATHERMAP_API_KEY", OpenWeatherURL: tools.DefaultOpenWeatherMapURL,
			TranslateKeyEnv: "TRANSLATE_API_KEY"},
		MQTT: withBrokerLimits(MQTTConfig{Listen: mqtt.DefaultBrokerAddr, ClientID: "nadine", Prefix: mqtt.DefaultPrefix, PasswordEnv: "NADINE_MQTT_PASSWORD"}),
		HTTP: HTTPConfig{Addr: web.DefaultAddr, TokenEnv: "NADINE_HTTP_TOKEN", MaxStreams: web.DefaultMaxStreams, MaxTokenFailures: web.DefaultMaxTokenFailures},
		Log:  LogConfig{Level: "info", Format: "text"},

		Telemetry: defaultTelemetry(),
	}
}

// defaultDataDir: $XDG_DATA_HOME/nadine, else ~/.local/share/nadine, else ./data.
func defaultDataDir(getenv func(string) string) string {
	if x := getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "nadine")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "share", "nadine")
	}
	return "data"
}

// Load is the defaults, the file at path, then the variables, validated. It
// knows variables by name only: it misses a profile that only they name.
func Load(path string, getenv func(string) string) (Config, error) {
	return loadConfigFrom(path, environment{getenv: getenv})
}

// LoadEnviron is Load over os.Environ: it finds profiles the variables alone
// name, and warns of each unknown NADINE_ variable.
func LoadEnviron(path string, getenv func(string) string, environ []string) (Config, error) {
	return loadConfigFrom(path, environment{getenv: getenv, environ: environ})
}

// Warnings are what was accepted but noticed, for the commands to log.
func (c *Config) Warnings() []string { return c.warnings }

// loadConfigFrom reports every error in one pass, each with the file:line or
// variable that gave it; origin is nil when nothing could be read.
func loadConfigFrom(path string, ev environment) (Config, error) {
	cfg := Default(ev.getenv)
	origin := map[string]string{}
	cfg.origin = origin
	var errs []error
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			cfg.origin = nil
			return cfg, fmt.Errorf("config: %w", err)
		}
		fieldErrs, err := decodeFile(path, b, &cfg)
		if err != nil {
			cfg.origin = nil
			return cfg, errors.Join(append(fieldErrs, err)...)
		}
		errs = fieldErrs
	}
	o := &envOverrides{ev: ev, known: map[string]bool{}, origin: origin}
	o.apply(reflect.ValueOf(&cfg).Elem(), "NADINE", "")
	errs = append(errs, o.errs...)
	cfg.origin = origin
	cfg.warnings = o.unknownVariables(&cfg)
	errs = append(errs, cfg.Validate())
	return cfg, errors.Join(errs...)
}

// setScalar sets a field from a variable's text; lists split at sep (or ",").
func setScalar(v reflect.Value, s, sep string) error {
	// A field that parses its own variable (mqtt.broker_users).
	if v.CanAddr() {
		if e, ok := v.Addr().Interface().(envSetter); ok {
			return e.SetEnv(s)
		}
	}
	if v.Type() == durationType {
		d, err := parseDuration(s)
		if err != nil {
			return err
		}
		v.Set(reflect.ValueOf(d))
		return nil
	}
	if v.Kind() == reflect.Pointer {
		p := reflect.New(v.Type().Elem())
		if err := setScalar(p.Elem(), s, sep); err != nil {
			return err
		}
		v.Set(p)
		return nil
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("%q is not a boolean (true or false)", s)
		}
		v.SetBool(b)
	case reflect.Int:
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("%q is not an integer", s)
		}
		v.SetInt(int64(n))
	case reflect.Float64:
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", s)
		}
		v.SetFloat(f)
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.String {
			return fmt.Errorf("a list of %s cannot be set from the environment", v.Type().Elem())
		}
		if sep == "" {
			sep = ","
		}
		var parts []string
		for _, p := range strings.Split(s, sep) {
			if p = strings.TrimSpace(p); p != "" {
				parts = append(parts, p)
			}
		}
		list := reflect.MakeSlice(v.Type(), len(parts), len(parts))
		for i, p := range parts {
			list.Index(i).SetString(p)
		}
		v.Set(list)
	default:
		return fmt.Errorf("unsupported type %s", v.Type())
	}
	return nil
}

// validateFiller: known languages, each once, no blank or overlong line.
func (c *Config) validateFiller(bad func(field, format string, args ...any)) {
	keys := make([]string, 0, len(c.Filler.Lines))
	for k := range c.Filler.Lines {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	seen := map[nadine.Language]string{}
	for _, k := range keys {
		field := "filler.lines." + k
		l := nadine.Language(strings.ToLower(strings.TrimSpace(k)))
		if !l.Valid() {
			bad(field, "unknown language (known: en, fr, de, zh)")
			continue
		}
		if other, ok := seen[l]; ok {
			bad(field, "%s is already given as %q", l.Name(), other)
		}
		seen[l] = k
		lines := c.Filler.Lines[k]
		if len(lines) == 0 {
			bad(field, "must list at least one line")
		}
		for i, line := range lines {
			if err := tools.CheckFillerLine(line); err != nil {
				bad(fmt.Sprintf("%s[%d]", field, i), "%v", err)
			}
		}
	}
}

// FillerLines returns filler.lines by language (the configuration is valid).
func (c *Config) FillerLines() map[nadine.Language][]string {
	if len(c.Filler.Lines) == 0 {
		return nil
	}
	out := make(map[nadine.Language][]string, len(c.Filler.Lines))
	for k, lines := range c.Filler.Lines {
		out[nadine.Language(strings.ToLower(strings.TrimSpace(k)))] = lines
	}
	return out
}

// Key returns the profile's key, from the file or its variable.
func (p ProfileConfig) Key(getenv func(string) string) string {
	if p.APIKey != "" {
		return p.APIKey
	}
	if p.APIKeyEnv != "" {
		return getenv(p.APIKeyEnv)
	}
	return ""
}

// Usable reports a key, or a server that needs none (any but api.openai.com).
func (p ProfileConfig) Usable(getenv func(string) string) bool {
	if p.Key(getenv) != "" {
		return true
	}
	u, err := url.Parse(p.BaseURL)
	return err == nil && u.Host != "" && u.Host != "api.openai.com"
}

// Redacted is a copy for printing: API keys and every URL's password hidden.
func (c Config) Redacted() Config {
	out := c
	out.Models.Profiles = map[string]ProfileConfig{}
	for n, p := range c.Models.Profiles {
		if p.APIKey != "" {
			p.APIKey = "REDACTED"
		}
		out.Models.Profiles[n] = p
	}
	redactURLs(reflect.ValueOf(&out).Elem())
	return out
}

// Print writes the redacted YAML, noting which profiles have a key.
func Print(w io.Writer, cfg Config, getenv func(string) string) error {
	names := make([]string, 0, len(cfg.Models.Profiles))
	for n := range cfg.Models.Profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := cfg.Models.Profiles[n]
		key := "no key"
		if p.Key(getenv) != "" {
			key = "key set"
		}
		fmt.Fprintf(w, "# profile %s: %s at %s (%s; usable: %v)\n", n, p.Model, RedactURL(p.BaseURL), key, p.Usable(getenv))
	}
	b, err := yaml.Marshal(cfg.Redacted())
	if err != nil {
		return fmt.Errorf("config: encode: %w", err)
	}
	_, err = w.Write(b)
	return err
}
