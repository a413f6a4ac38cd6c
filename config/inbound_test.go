package config

import (
	"strings"
	"testing"
	"time"
)

func TestConfigInbound(t *testing.T) {
	cfg, err := Load("", envMap(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := time.Duration(cfg.Limits.TranscriptMaxAge); got != 10*time.Second || cfg.Limits.Queue != 32 || cfg.Limits.Backlog != 3 {
		t.Errorf("defaults: transcript_max_age %s, queue %d, backlog %d; want 10s, 32, 3", got, cfg.Limits.Queue, cfg.Limits.Backlog)
	}
	cfg, err = Load(writeConfig(t, "limits: {transcript_max_age: 4s, queue: 8}\n"),
		envMap(map[string]string{"NADINE_LIMITS_TRANSCRIPT_MAX_AGE": "2.5", "NADINE_LIMITS_BACKLOG": "5"}))
	if err != nil {
		t.Fatal(err)
	}
	if got := time.Duration(cfg.Limits.TranscriptMaxAge); got != 2500*time.Millisecond || cfg.Limits.Queue != 8 || cfg.Limits.Backlog != 5 {
		t.Errorf("file and env: transcript_max_age %s, queue %d, backlog %d; want 2.5s (env wins), 8, 5", got, cfg.Limits.Queue, cfg.Limits.Backlog)
	}
	for _, tt := range []struct{ file, want string }{
		{"limits: {transcript_max_age: 0s}\n", "limits.transcript_max_age"},
		{"limits: {transcript_max_age: -1s}\n", "limits.transcript_max_age"},
		{"limits: {queue: -3}\n", "limits.queue"},
		{"limits: {backlog: 0}\n", "limits.backlog"},
	} {
		if _, err := Load(writeConfig(t, tt.file), envMap(nil)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err = %v, want it to name %s", tt.file, err, tt.want)
		}
	}
}
