package config

import (
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
)

// LanguageConfig is the session's language; `language: fr` (or
// NADINE_LANGUAGE=fr) is short for `language: {default: fr}`.
type LanguageConfig struct {
	// Default is the session language at start and, with ResetOnLeave,
	// after every end of interaction.
	Default string `yaml:"default"`
	// Follow is input (answer in the visitor's language and switch to it) or
	// session (the ReAct design: translate the reply into the session's).
	Follow string `yaml:"follow"`
	// ResetOnLeave puts the session language back to Default at the end
	// of every interaction (true by default).
	ResetOnLeave *bool `yaml:"reset_on_leave"`
}

// UnmarshalYAML accepts a language code as well as the mapping.
func (l *LanguageConfig) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		l.Default = n.Value
		return nil
	}
	type plain LanguageConfig
	return n.Decode((*plain)(l))
}

// SetEnvScalar takes NADINE_LANGUAGE=fr as the default language.
func (l *LanguageConfig) SetEnvScalar(s string) error {
	l.Default = s
	return nil
}

// SessionConfig bounds an interaction.
type SessionConfig struct {
	// IdleTimeout ends the interaction when no transcript came and
	// perception saw nobody for this long (90 s); 0 never.
	IdleTimeout Duration `yaml:"idle_timeout"`
}

// defaultSession and defaultLanguage are the defaults of the two blocks.
func defaultSession() SessionConfig { return SessionConfig{IdleTimeout: Duration(90 * time.Second)} }

func defaultLanguage() LanguageConfig {
	reset := true
	return LanguageConfig{Default: "en", Follow: string(dialogue.FollowInput), ResetOnLeave: &reset}
}

// sessionLanguage is language.default (the configuration is valid).
func (c *Config) sessionLanguage() nadine.Language {
	l, _ := nadine.ParseLanguage(c.Language.Default)
	return l
}

// KeepLanguage reports language.reset_on_leave: false.
func (c *Config) KeepLanguage() bool {
	return c.Language.ResetOnLeave != nil && !*c.Language.ResetOnLeave
}
