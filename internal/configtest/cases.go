// Package configtest holds configurations that break each rule, shared so
// that config's tests and serve's refuse the same cases.
package configtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// RuleCase is a file that breaks the rule at Path, and the error it must give.
type RuleCase struct{ Path, File, Want string }

// Rules break each rule of configRules; serve and config refuse them alike
// (TestPreflightWalksTheRules).
func Rules() []RuleCase {
	profile := "models: {profiles: {default: {base_url: 'http://x/v1', model: m, %s}}}\n"
	return []RuleCase{
		{"engine", "engine: langchain\n", `"langchain" is not react, graph or offline`},
		{"engine", "engine: grahp\n", `(did you mean graph?)`},
		{"data_dir", "data_dir: ''\n", "must not be empty"},
		{"language.default", "language: klingon\n", "klingon"},
		{"language.follow", "language: {follow: visitor}\n", `"visitor" is not input or session`},
		{"models.profiles.small.model", "models: {profiles: {small: {base_url: 'http://x/v1'}}}\n", "must not be empty"},
		{"models.profiles.small.base_url", "models: {profiles: {small: {base_url: localhost, model: x}}}\n", `must be an http(s) URL, not "localhost"`},
		{"models.profiles.default.temperature", strings.Replace(profile, "%s", "temperature: 3", 1), "3 is not between 0 and 2"},
		{"models.profiles.default.max_tokens", strings.Replace(profile, "%s", "max_tokens: -1", 1), "-1 is negative"},
		{"models.profiles.default.max_retries", strings.Replace(profile, "%s", "max_retries: -2", 1), "-2 is negative"},
		{"models.profiles.default.structured", strings.Replace(profile, "%s", "structured: json", 1), `"json" is not auto, json_schema, tools or text`},
		{"models.roles.poet", "models: {roles: {poet: default}}\n", "unknown role"},
		{"models.roles.intent_clasifier", "models: {roles: {intent_clasifier: default}}\n", "(did you mean intent_classifier?)"},
		{"models.roles.response", "models: {roles: {response: huge}}\n", `no profile named "huge" (profiles: default)`},
		{"models.fallback[1]", "models: {profiles: {big: {base_url: 'http://x/v1', model: m}}, fallback: [big, bigg]}\n", `no profile named "bigg" (did you mean big?)`},
		{"models.timeouts.respons", "models: {timeouts: {respons: {attempt: 3s}}}\n", "(did you mean response?)"},
		{"models.breaker.failures", "models: {breaker: {failures: -1}}\n", "-1 is negative"},
		{"models.breaker.server_failures", "models: {breaker: {server_failures: -8}}\n", "-8 is negative"},
		{"embeddings.provider", "embeddings: {provider: cohere}\n", `"cohere" is not auto, lexical or openai`},
		{"embeddings.dimensions", "embeddings: {dimensions: -3}\n", "-3 is negative"},
		{"limits.max_input_chars", "limits: {max_input_chars: 0}\n", "0 is below 1"},
		{"limits.max_steps", "limits: {max_steps: 0}\n", "0 is below 1"},
		{"limits.max_tool_calls", "limits: {max_tool_calls: 0}\n", "0 is below 1"},
		{"limits.parse_retries", "limits: {parse_retries: -1}\n", "-1 is negative"},
		{"turns.preemptive_attempts", "turns: {preemptive_attempts: 0}\n", "0 is below 1"},
		{"speech.max_sentences", "speech: {max_sentences: 0}\n", "0 is below 1"},
		{"speech.max_words", "speech: {max_words: -4}\n", "-4 is below 1"},
		{"memory.window", "memory: {window: 1, stride: 1}\n", "1 is below 2"},
		{"memory.stride", "memory: {stride: 0}\n", "0 is below 1"},
		{"memory.stride", "memory: {stride: 30}\n", "30 is above memory.window (20)"},
		{"memory.top_k", "memory: {top_k: -1}\n", "-1 is negative"},
		{"memory.name_high", "memory: {name_high: 1.7}\n", "1.7 is not between 0 and 1"},
		{"memory.name_low", "memory: {name_low: -0.1}\n", "-0.1 is not between 0 and 1"},
		{"memory.name_low", "memory: {name_low: 0.9, name_high: 0.5}\n", "0.9 is above memory.name_high (0.5)"},
		{"memory.conversation_limit", "memory: {conversation_limit: -1}\n", "-1 is negative"},
		{"knowledge.top_k", "knowledge: {top_k: -1}\n", "-1 is negative"},
		{"visual.similarity_threshold", "visual: {similarity_threshold: 2}\n", "2 is not between -1 and 1"},
		{"visual.retrieval_alpha", "visual: {retrieval_alpha: 1.5}\n", "1.5 is not between 0 and 1"},
		{"mqtt.url", "mqtt: {url: ':::'}\n", "must look like mqtt://host:1883"},
		{"mqtt.prefix", "mqtt: {prefix: 'nadine/#'}\n", "without wildcards"},
		{"log.level", "log: {level: verbose}\n", `"verbose" is not debug, info, warn or error`},
		{"log.format", "log: {format: xml}\n", `"xml" is not text or json`},
	}
}

// RobotRules break each rule of robots: (config's TestRobotRules).
func RobotRules() []RuleCase {
	profiles := "models: {profiles: {big: {base_url: 'http://x/v1', model: big}}}\n"
	return []RuleCase{
		{"robots[1].prefix", "robots: [{prefix: a}, {prefix: ''}]\n", "without wildcards"},
		{"robots[0].prefix", "robots: [{prefix: 'lobby/+'}]\n", "without wildcards"},
		{"robots[0].prefix", "robots: [{prefix: '/lobby'}]\n", "has an empty topic level"},
		{"robots[1].prefix", "robots: [{prefix: a}, {prefix: a, client_id: b}]\n", "robots[0]'s prefix too"},
		{"robots[1].client_id", "robots: [{prefix: a, client_id: x}, {prefix: b, client_id: x}]\n", "the broker would disconnect one of them"},
		{"robots[0].language", "robots: [{prefix: a, language: klingon}]\n", "klingon"},
		{"robots[0].engine", "robots: [{prefix: a, engine: grahp}]\n", "(did you mean graph?)"},
		{"robots[0].models.roles.poet", "robots: [{prefix: a, models: {roles: {poet: default}}}]\n", "unknown role"},
		{"robots[0].models.roles.embeddings", "robots: [{prefix: a, models: {roles: {embeddings: default}}}]\n", "shared by every robot"},
		{"robots[0].models.roles.response", "robots: [{prefix: a, models: {roles: {response: huge}}}]\n", `no profile named "huge"`},
		{"robots[0].models.fallback[1]", profiles + "robots: [{prefix: a, models: {fallback: [big, bigg]}}]\n", `(did you mean big?)`},
		{"robots[0].place", "robots: [{prefix: a, place: \"x\\ny\"}]\n", "must be one line"},
		{"robots[0].place_translations.de", "place: here\nrobots: [{prefix: a, place_translations: {de: hier}}]\n", "needs robots[0].place"},
	}
}

// StartRules break the check of each part serve starts (config's start
// rules); Path is a field the error must blame, under the part's path.
func StartRules(t testing.TB) []RuleCase {
	notADir := filepath.Join(t.TempDir(), "nadine.db")
	if err := os.WriteFile(notADir, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	return []RuleCase{
		{"mqtt.broker_users[0]", "mqtt: {broker_users: [{username: perception}]}\n", "holds no password"},
		{"mqtt.listen", "mqtt: {listen: 'not an address'}\n", "missing port"},
		{"mqtt.listen", "mqtt: {listen: '127.0.0.1:eighteen'}\n", "unknown port"},
		{"mqtt.ca_file", "mqtt: {url: 'mqtts://127.0.0.1:1', ca_file: " + filepath.Join(t.TempDir(), "ca.pem") + "}\n", "TLS.CAFile"},
		{"mqtt", "mqtt: {insecure_skip_verify: true}\n", "is not TLS"},
		{"data_dir", "data_dir: " + notADir + "\n", "is not a directory"},
		{"data_dir", "data_dir: " + filepath.Join(notADir, "under") + "\n", "is not a directory"},
		{"models.profiles.default.temperature", "models: {profiles: {default: {base_url: 'http://x/v1', model: m, temperature: 3}}}\n", "between 0 and 2"},
		{"embeddings.model", "embeddings: {provider: openai, model: ''}\n", "Model is required"},
		{"http.addr", "http: {addr: '0.0.0.0:0'}\n", "no token is set"},
		{"http.addr", "http: {addr: '127.0.0.1:eighty'}\n", "unknown port"},
	}
}
