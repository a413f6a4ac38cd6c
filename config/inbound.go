package config

import "time"

// validateInbound checks the limits on heard transcripts:
// limits.transcript_max_age (NADINE_LIMITS_TRANSCRIPT_MAX_AGE, default
// 10s), how old a transcript may be, limits.queue (NADINE_LIMITS_QUEUE,
// default 32), how many heard transcripts wait, and limits.backlog
// (default 3), how many may wait before the newest goes first.
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
