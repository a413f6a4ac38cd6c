package config

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/failover"
)

// RoleTimeoutConfig bounds a role's attempts; zero values are its defaults.
type RoleTimeoutConfig struct {
	// Attempt bounds one attempt: the whole answer.
	Attempt Duration `yaml:"attempt"`
	// FirstToken bounds, for the streamed roles (react_agent, response),
	// the wait for the first piece of the answer.
	FirstToken Duration `yaml:"first_token,omitempty"`
}

// BreakerConfig skips a profile after Failures failed calls and probes it every
// Cooldown until it answers. Zero values are the defaults.
type BreakerConfig struct {
	Failures int `yaml:"failures"`
	// ServerFailures is how many failed attempts in a row on one server
	// (every profile with the same base URL host) skip all its profiles.
	ServerFailures int      `yaml:"server_failures"`
	Cooldown       Duration `yaml:"cooldown"`
	ProbeTimeout   Duration `yaml:"probe_timeout"`
}

// defaultRetries of a failed attempt on one profile, within the turn's budget.
const defaultRetries = 2

// defaultRoleTimeouts: seconds for answers of a sentence on the reply's path,
// a first-token deadline for streams, more for songs and images.
var defaultRoleTimeouts = map[string]RoleTimeoutConfig{
	"contextualizer":    {Attempt: Duration(3 * time.Second)},
	"react_agent":       {Attempt: Duration(failover.DefaultAttempt), FirstToken: Duration(4 * time.Second)},
	"intent_classifier": {Attempt: Duration(3 * time.Second)},
	"memory_update":     {Attempt: Duration(5 * time.Second)},
	"appraisal":         {Attempt: Duration(3 * time.Second)},
	"context_summary":   {Attempt: Duration(3 * time.Second)},
	"orchestrator":      {Attempt: Duration(4 * time.Second)},
	"search_router":     {Attempt: Duration(3 * time.Second)},
	"search_answer":     {Attempt: Duration(6 * time.Second)},
	"vision":            {Attempt: Duration(15 * time.Second)},
	"response":          {Attempt: Duration(failover.DefaultAttempt), FirstToken: Duration(4 * time.Second)},
	"translator":        {Attempt: Duration(4 * time.Second)},
	"songwriter":        {Attempt: Duration(45 * time.Second)},
	"embeddings":        {Attempt: Duration(3 * time.Second)},
}

// defaultTimeouts is a copy of defaultRoleTimeouts, so each role has a variable.
func defaultTimeouts() map[string]RoleTimeoutConfig {
	return maps.Clone(defaultRoleTimeouts)
}

// RoleTimeouts are a role's timeouts, zero fields the role's defaults.
func (c *Config) RoleTimeouts(role string) failover.Timeouts {
	t, def := c.Models.Timeouts[role], defaultRoleTimeouts[role]
	if t.Attempt == 0 {
		t.Attempt = def.Attempt
	}
	if t.FirstToken == 0 {
		t.FirstToken = def.FirstToken
	}
	return failover.Timeouts{Attempt: time.Duration(t.Attempt), FirstToken: time.Duration(t.FirstToken)}
}

// Breaker returns the breaker settings for the failover pool.
func (c *Config) Breaker() failover.BreakerConfig {
	b := c.Models.Breaker
	return failover.BreakerConfig{Failures: b.Failures, ServerFailures: b.ServerFailures,
		Cooldown: time.Duration(b.Cooldown), ProbeTimeout: time.Duration(b.ProbeTimeout)}
}

// Retries returns how often a failed attempt is retried on the profile.
func (p ProfileConfig) Retries() int {
	if p.MaxRetries != nil {
		return max(*p.MaxRetries, 0)
	}
	return defaultRetries
}

// Server is the base URL's scheme and host: the profiles of one server share
// its run of failed attempts (models.breaker.server_failures).
func (p ProfileConfig) Server() string {
	u, err := url.Parse(p.BaseURL)
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// TurnTimeout is limits.turn_timeout, zero meaning the default.
func (c *Config) TurnTimeout() time.Duration {
	if c.Limits.TurnTimeout == 0 {
		return dialogue.DefaultTurnTimeout
	}
	return time.Duration(c.Limits.TurnTimeout)
}

// FirstSpeech is limits.first_speech, zero meaning the default.
func (c *Config) FirstSpeech() time.Duration {
	if c.Limits.FirstSpeech == 0 {
		return dialogue.DefaultFirstSpeech
	}
	return time.Duration(c.Limits.FirstSpeech)
}

// validateFailover checks what no rule can: first token within the attempt,
// first speech before the turn's end.
func (c *Config) validateFailover(bad func(field, format string, args ...any)) {
	for _, r := range slices.Sorted(maps.Keys(c.Models.Timeouts)) {
		if !slices.Contains(roleNames, r) {
			continue // blamed by the rule on models.timeouts.*
		}
		if eff := c.RoleTimeouts(r); eff.FirstToken > eff.Attempt {
			bad("models.timeouts."+r+".first_token", "must not be longer than the attempt timeout (%s > %s)", eff.FirstToken, eff.Attempt)
		}
	}
	if c.FirstSpeech() >= c.TurnTimeout() {
		bad("limits.first_speech", "must be shorter than limits.turn_timeout (%s >= %s)", c.FirstSpeech(), c.TurnTimeout())
	}
}

// DescribeFailover says, for the banner, how model failures are handled.
func (c *Config) DescribeFailover() string {
	b := c.Breaker()
	if b.Failures == 0 {
		b.Failures = failover.DefaultFailures
	}
	if b.Cooldown == 0 {
		b.Cooldown = failover.DefaultCooldown
	}
	if b.ServerFailures == 0 {
		b.ServerFailures = failover.DefaultServerFailures
	}
	return fmt.Sprintf("a profile is skipped after %d failed calls, a server after %d failed attempts in a row, and probed every %s; turn budget %s",
		b.Failures, b.ServerFailures, b.Cooldown, c.TurnTimeout())
}
