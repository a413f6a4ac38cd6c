package main

import (
	"time"

	"github.com/nadine-robot/nadine/robot"
)

// TurnsConfig sets when a turn may start: on the final transcript only,
// or already on a stable interim one (preemptive generation, see
// robot.Options.Preempt and docs/asyncapi.yaml).
type TurnsConfig struct {
	// Preemptive starts an early turn on a stable interim transcript
	// (`final: false` marked `stable: true`, or the same words for
	// PreemptiveAfter); the final transcript adopts it when its words are
	// the same, else it is cancelled. An early turn says and stores
	// nothing before its final transcript: only its model calls are lost
	// when the person says something else (true by default).
	Preemptive bool `yaml:"preemptive"`
	// PreemptiveAfter is how long an interim transcript's words must stay
	// the same to count as stable when speech-to-text does not say so
	// (300 ms).
	PreemptiveAfter Duration `yaml:"preemptive_after"`
	// PreemptiveAttempts bounds the early turns started per utterance (3).
	PreemptiveAttempts int `yaml:"preemptive_attempts"`
}

// defaultTurns is the turns block's default: preemptive turns on.
func defaultTurns() TurnsConfig {
	return TurnsConfig{Preemptive: true, PreemptiveAfter: Duration(robot.DefaultPreemptAfter),
		PreemptiveAttempts: robot.DefaultPreemptAttempts}
}

// validateTurns checks turns.preemptive_after (a stable interim needs a
// positive wait; attempts have a rule in configRules).
func (c *Config) validateTurns(bad func(field, format string, args ...any)) {
	if c.Turns.PreemptiveAfter <= 0 {
		bad("turns.preemptive_after", "must be positive (got %s)", time.Duration(c.Turns.PreemptiveAfter))
	}
}

// preemptOptions are the robot runtime's preemption options.
func (c *Config) preemptOptions() (on bool, after time.Duration, attempts int) {
	return c.Turns.Preemptive, time.Duration(c.Turns.PreemptiveAfter), c.Turns.PreemptiveAttempts
}
