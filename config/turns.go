package config

import (
	"time"

	"github.com/nadine-robot/nadine/bargein"
	"github.com/nadine-robot/nadine/robot"
)

// TurnsConfig sets when a turn may start (final or stable interim transcript)
// and what stops Nadine when a person talks over her.
type TurnsConfig struct {
	// Preemptive starts an early turn on a stable interim transcript; it says
	// and stores nothing before the final, so a change costs model calls only.
	Preemptive bool `yaml:"preemptive"`
	// PreemptiveAfter is how long an interim's words must stay the same to be
	// stable when speech-to-text does not say so.
	PreemptiveAfter Duration `yaml:"preemptive_after"`
	// PreemptiveAttempts bounds the early turns started per utterance (3).
	PreemptiveAttempts int `yaml:"preemptive_attempts"`
	// Interruptions says what stops Nadine when a person talks over her
	// (robot.Interruptions): off, words (default) or speech.
	Interruptions string `yaml:"interruptions"`
	// InterruptMinWords is how many words that are no backchannel stop her.
	InterruptMinWords int `yaml:"interrupt_min_words"`
	// InterruptMinDuration is how long voice activity stops her (speech).
	InterruptMinDuration Duration `yaml:"interrupt_min_duration"`
	// FalseInterruptionTimeout: after a stop by voice alone, she resumes
	// when no words came within it.
	FalseInterruptionTimeout Duration `yaml:"false_interruption_timeout"`
}

// defaultTurns is the turns block's default: preemptive turns on.
func defaultTurns() TurnsConfig {
	return TurnsConfig{Preemptive: true, PreemptiveAfter: Duration(robot.DefaultPreemptAfter),
		PreemptiveAttempts: robot.DefaultPreemptAttempts, Interruptions: string(robot.InterruptWords),
		InterruptMinWords: bargein.DefaultMinWords, InterruptMinDuration: Duration(robot.DefaultInterruptMinDuration),
		FalseInterruptionTimeout: Duration(robot.DefaultFalseInterruptionTimeout)}
}

// validateTurns: a stable interim needs a positive wait; attempts have a rule.
func (c *Config) validateTurns(bad func(field, format string, args ...any)) {
	if c.Turns.PreemptiveAfter <= 0 {
		bad("turns.preemptive_after", "must be positive (got %s)", time.Duration(c.Turns.PreemptiveAfter))
	}
	if !robot.InterruptMode(c.Turns.Interruptions).Valid() {
		bad("turns.interruptions", "%q is not off, words or speech", c.Turns.Interruptions)
	}
	if c.Turns.InterruptMinWords < 1 {
		bad("turns.interrupt_min_words", "must be at least 1 (got %d)", c.Turns.InterruptMinWords)
	}
	if c.Turns.InterruptMinDuration <= 0 {
		bad("turns.interrupt_min_duration", "must be positive (got %s)", time.Duration(c.Turns.InterruptMinDuration))
	}
	if c.Turns.FalseInterruptionTimeout <= 0 {
		bad("turns.false_interruption_timeout", "must be positive (got %s)", time.Duration(c.Turns.FalseInterruptionTimeout))
	}
}

// Interruptions are the robot runtime's interruption options.
func (c *Config) Interruptions() robot.Interruptions {
	return robot.Interruptions{Mode: robot.InterruptMode(c.Turns.Interruptions), MinWords: c.Turns.InterruptMinWords,
		MinDuration: time.Duration(c.Turns.InterruptMinDuration), FalseTimeout: time.Duration(c.Turns.FalseInterruptionTimeout)}
}

// PreemptOptions are the robot runtime's preemption options.
func (c *Config) PreemptOptions() (on bool, after time.Duration, attempts int) {
	return c.Turns.Preemptive, time.Duration(c.Turns.PreemptiveAfter), c.Turns.PreemptiveAttempts
}
