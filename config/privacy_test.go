package config

import (
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"http://user:secret@host/v1", "http://user:REDACTED@host/v1"},
		{"postgres://nadine:pa%40ss@db:5432/nadine?sslmode=disable", "postgres://nadine:REDACTED@db:5432/nadine?sslmode=disable"},
		{"http://user@host/v1", "http://user@host/v1"},
		{"https://api.openai.com/v1", "https://api.openai.com/v1"},
		{"host=db user=nadine password=secret dbname=nadine", "host=db user=nadine password=REDACTED dbname=nadine"},
		{"host=db password='a b c' sslmode=require", "host=db password=REDACTED sslmode=require"},
		{"plain text", "plain text"},
		{"", ""},
	} {
		if got := RedactURL(tt.in); got != tt.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestPrivacyConfig: defaults, environment overrides and validation of
// http.max_streams, http.max_token_failures and mqtt.broker_users.
func TestPrivacyConfig(t *testing.T) {
	home := t.TempDir()
	cfg, err := Load("", envMap(map[string]string{"HOME": home}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTP.MaxStreams != 64 || cfg.HTTP.MaxTokenFailures != 10 || len(cfg.MQTT.BrokerUsers) != 0 || cfg.Log.Content {
		t.Errorf("defaults: http %+v, broker users %v, log.content %v", cfg.HTTP, cfg.MQTT.BrokerUsers, cfg.Log.Content)
	}
	cfg, err = Load("", envMap(map[string]string{"HOME": home, "NADINE_HTTP_MAX_STREAMS": "8",
		"NADINE_HTTP_MAX_TOKEN_FAILURES": "3", "NADINE_LOG_CONTENT": "true",
		"NADINE_MQTT_BROKER_USERS": "perception, control:CONTROL_PW"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.HTTP.MaxStreams != 8 || cfg.HTTP.MaxTokenFailures != 3 || !cfg.Log.Content {
		t.Errorf("env overrides: http %+v, log.content %v", cfg.HTTP, cfg.Log.Content)
	}
	want := BrokerUsers{{Username: "perception"}, {Username: "control", PasswordEnv: "CONTROL_PW"}}
	if len(cfg.MQTT.BrokerUsers) != 2 || cfg.MQTT.BrokerUsers[0] != want[0] || cfg.MQTT.BrokerUsers[1] != want[1] {
		t.Errorf("broker users = %+v, want %+v", cfg.MQTT.BrokerUsers, want)
	}
	for _, tt := range []struct{ yaml, field string }{
		{"http: {max_streams: -1}", "http.max_streams"},
		{"http: {max_token_failures: -2}", "http.max_token_failures"},
		{"mqtt: {broker_users: [{username: ''}]}", "mqtt.broker_users[0].username"},
		{"mqtt: {broker_users: [{username: a}, {username: a}]}", "mqtt.broker_users[1].username"},
		{"mqtt: {broker_users: [{username: 'a:b'}]}", "mqtt.broker_users[0].username"},
		{"mqtt: {url: 'mqtt://x:1883', broker_users: [{username: a}]}", "mqtt.broker_users"},
	} {
		_, err := Load(writeConfig(t, tt.yaml), envMap(map[string]string{"HOME": home}))
		if err == nil || !strings.Contains(unlocated(err), "config: "+tt.field+":") {
			t.Errorf("%s: error %v, want one naming %s", tt.yaml, err, tt.field)
		}
	}
}

// TestBrokerUsers: the broker's users get their passwords from the
// environment; nadine's own client is one of them (mqtt.username, or an
// internal user with a random password); a missing password names its
// variable.
func TestBrokerUsers(t *testing.T) {
	cfg := Default(envMap(nil))
	cfg.MQTT.BrokerUsers = BrokerUsers{{Username: "perception"}, {Username: "tts-2", PasswordEnv: "TTS_PW"}}
	vars := map[string]string{"NADINE_MQTT_PASSWORD_PERCEPTION": "p1", "TTS_PW": "p2"}
	users, self, err := cfg.BrokerAccounts(envMap(vars))
	if err != nil {
		t.Fatal(err)
	}
	if users["perception"] != "p1" || users["tts-2"] != "p2" || len(users) != 3 || users[self.Username] != self.Password ||
		!strings.HasPrefix(self.Username, "nadine-internal-") || len(self.Password) < 32 {
		t.Errorf("users %v, self %+v", users, self)
	}
	cfg.MQTT.Username, vars["NADINE_MQTT_PASSWORD"] = "nadine", "n1"
	users, self, err = cfg.BrokerAccounts(envMap(vars))
	if err != nil || self != (BrokerCredentials{"nadine", "n1"}) || users["nadine"] != "n1" {
		t.Errorf("with mqtt.username: users %v, self %+v, %v", users, self, err)
	}
	delete(vars, "TTS_PW")
	if _, _, err := cfg.BrokerAccounts(envMap(vars)); err == nil || !strings.Contains(err.Error(), "$TTS_PW") || strings.Contains(err.Error(), "p1") {
		t.Errorf("missing password: %v", err)
	}
	cfg.MQTT.BrokerUsers = nil
	if users, _, err := cfg.BrokerAccounts(envMap(vars)); err != nil || users != nil {
		t.Errorf("no broker users: %v, %v; want none (any client)", users, err)
	}
}

// TestBrokerOffLoopbackNeedsUsers: the embedded broker listens beyond
// the loopback interface only with mqtt.broker_users (it used to start
// with a warning, open to anyone on the network).
func TestBrokerOffLoopbackNeedsUsers(t *testing.T) {
	for _, tt := range []struct {
		listen, url string
		users       bool
		refused     bool
	}{
		{"127.0.0.1:1883", "", false, false},
		{"localhost:1883", "", false, false},
		{"[::1]:1883", "", false, false},
		{"0.0.0.0:1883", "", false, true},
		{":1883", "", false, true},
		{"192.168.1.10:1883", "", false, true},
		{"robot.local:1883", "", false, true},
		{"0.0.0.0:1883", "", true, false},
		{"0.0.0.0:1883", "mqtt://broker:1883", false, false},
	} {
		cfg := Default(envMap(nil))
		cfg.MQTT.Listen, cfg.MQTT.URL = tt.listen, tt.url
		if tt.users {
			cfg.MQTT.BrokerUsers = BrokerUsers{{Username: "perception"}}
		}
		err := cfg.Validate()
		if refused := err != nil && strings.Contains(err.Error(), "mqtt.listen"); refused != tt.refused {
			t.Errorf("listen %s, url %q, users %v: %v, want refused %v", tt.listen, tt.url, tt.users, err, tt.refused)
		}
	}
}

// TestFeatureFlagsAreIndependent: turning one feature off in the file
// leaves the others on (the defaults once shared one variable, so that
// "speculate: false" also turned the memory agents off, which the
// isolation test found).
func TestFeatureFlagsAreIndependent(t *testing.T) {
	cfg, err := Load(writeConfig(t, "features: {speculate: false}\n"), envMap(map[string]string{"HOME": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	f := cfg.Features
	if *f.Speculate || !*f.MemoryAgents || !*f.Contextualize || !*f.VisionAgent || !*cfg.Filler.Enabled {
		t.Errorf("speculate %v, memory_agents %v, contextualize %v, vision_agent %v, filler %v; want only speculate off",
			*f.Speculate, *f.MemoryAgents, *f.Contextualize, *f.VisionAgent, *cfg.Filler.Enabled)
	}
}
