package config

import "time"

// validateInbound: heard transcripts' age, queue and backlog must be positive.
func (c *Config) validateInbound(bad func(field, format string, args ...any)) {
	if c.Limits.TranscriptMaxAge <= 0 {
		bad("limits.transcript_max_age", "must be positive (got %s)", time.Duration(c.Limits.TranscriptMaxAge))
	}
	if c.Limits.Queue < 1 {
		bad("limits.queue", "must be at least 1 (got %d)", c.Limits.Queue)
	}
	if c.Limits.Backlog < 1 {
		bad("limits.backlog", "must be at least 1 (got %d)", c.Limits.Backlog)
	}
}
