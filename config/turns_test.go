package config

import (
	"strings"
	"testing"
	"time"
)

// TestConfigTurns: preemptive turns are on by default, after 300 ms of the
// same words, 3 attempts; the file and the environment set them, and a
// wait that is not positive is refused naming the field.
func TestConfigTurns(t *testing.T) {
	cfg, err := Load("", envMap(nil))
	if err != nil {
		t.Fatal(err)
	}
	on, after, attempts := cfg.PreemptOptions()
	if !on || after != 300*time.Millisecond || attempts != 3 {
		t.Errorf("defaults: preemptive %v, after %s, attempts %d; want true, 300ms, 3", on, after, attempts)
	}
	cfg, err = Load(writeConfig(t, "turns: {preemptive: false, preemptive_after: 200ms, preemptive_attempts: 5}\n"),
		envMap(map[string]string{"NADINE_TURNS_PREEMPTIVE_AFTER": "450ms"}))
	if err != nil {
		t.Fatal(err)
	}
	on, after, attempts = cfg.PreemptOptions()
	if on || after != 450*time.Millisecond || attempts != 5 {
		t.Errorf("file and env: preemptive %v, after %s, attempts %d; want false, 450ms (env wins), 5", on, after, attempts)
	}
	cfg, err = Load("", envMap(map[string]string{"NADINE_TURNS_PREEMPTIVE": "false"}))
	if err != nil || cfg.Turns.Preemptive {
		t.Errorf("NADINE_TURNS_PREEMPTIVE=false: preemptive %v, err %v", cfg.Turns.Preemptive, err)
	}
	for _, tt := range []struct{ file, want string }{
		{"turns: {preemptive_after: 0s}\n", "config: turns.preemptive_after: must be positive (got 0s)"},
		{"turns: {preemptive_after: -1s}\n", "turns.preemptive_after"},
		{"turns: {preemptive_attempts: -2}\n", "config: turns.preemptive_attempts: -2 is below 1"},
		{"turns: {preemptive: sometimes}\n", "turns.preemptive"},
	} {
		if _, err := Load(writeConfig(t, tt.file), envMap(nil)); err == nil || !strings.Contains(unlocated(err), tt.want) {
			t.Errorf("%q: err = %v, want %q", tt.file, err, tt.want)
		}
	}
}
