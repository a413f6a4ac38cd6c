package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/web"
)

// RobotConfig is one robot: its own topics, session, queue, inbox and engine
// over the process's store, models and tools; empty fields take the top's.
type RobotConfig struct {
	// Prefix is the robot's topic prefix and its name (its session and inbox
	// are keyed by it), unique across the fleet.
	Prefix string `yaml:"prefix"`
	// ClientID defaults to <mqtt.client_id>-<prefix> ("/" as "-"); unique, or
	// the broker disconnects one of two robots.
	ClientID string `yaml:"client_id"`
	// Place says where this robot stands (default: place).
	Place string `yaml:"place"`
	// PlaceTranslations needs Place: a robot without its own place takes the
	// top-level place with its translations.
	PlaceTranslations PlaceTranslationsConfig `yaml:"place_translations"`
	// Language is the robot's session language at start and after each
	// end of interaction (default: language.default).
	Language string `yaml:"language"`
	// Engine is react, graph or offline (default: engine).
	Engine string `yaml:"engine"`
	// Models gives this robot's engine other profiles than the process's.
	Models RobotModelsConfig `yaml:"models"`
}

// RobotModelsConfig is what a robot changes of models: roles and fallback.
type RobotModelsConfig struct {
	// Roles overrides models.roles, except the roles every robot shares
	// (sharedRoles).
	Roles map[string]string `yaml:"roles"`
	// Fallback replaces models.fallback for this robot when given.
	Fallback []string `yaml:"fallback"`
}

// Robots are serve's robots; empty, it serves one robot on mqtt.prefix.
type Robots []RobotConfig

// SetEnv reads NADINE_ROBOTS: prefixes, each with an optional language
// ("lobby,hall:fr").
func (rs *Robots) SetEnv(s string) error {
	var out Robots
	for _, p := range envPairs(s) {
		out = append(out, RobotConfig{Prefix: p[0], Language: p[1]})
	}
	*rs = out
	return nil
}

// sharedRoles are served once per process: the fleet's memory is one vector
// space, and the translator and songwriter are tools every robot shares.
var sharedRoles = []string{"embeddings", "translator", "songwriter"}

// robotRules are the rules of each robot's fields (see configRules).
var robotRules = []rule{
	{"robots[*].prefix", topicPrefix},
	{"robots[*].language", optional(languageCode)},
	{"robots[*].engine", optional(oneOf("react", "graph", "offline"))},
	{"robots[*].models.roles.*", knownRole},
	{"robots[*].models.roles.*", engineRole},
	{"robots[*].models.roles.*", profileName},
	{"robots[*].models.fallback[*]", profileName},
}

// optional applies c to a field that is set.
func optional(c check) check {
	return func(f field) string {
		if f.v.String() == "" {
			return ""
		}
		return c(f)
	}
}

// engineRole refuses the roles every robot shares.
func engineRole(f field) string {
	if slices.Contains(sharedRoles, f.key) {
		return "is shared by every robot of the process: set it in models.roles"
	}
	return ""
}

// validateRobots: each robot's rules, unique prefixes and client ids, places.
func (c *Config) validateRobots(bad func(field, format string, args ...any)) {
	for _, r := range robotRules {
		for _, f := range fieldsAt(c, r.path) {
			if msg := r.check(f); msg != "" {
				bad(f.path, "%s", msg)
			}
		}
	}
	prefixes, clients := map[string]int{}, map[string]int{}
	for i, r := range c.Robots {
		field := fmt.Sprintf("robots[%d]", i)
		if j, ok := prefixes[r.Prefix]; ok && r.Prefix != "" {
			bad(field+".prefix", "%q is robots[%d]'s prefix too: each robot needs its own topics", r.Prefix, j)
		}
		prefixes[r.Prefix] = i
		id := c.robotClientID(r)
		if j, ok := clients[id]; ok && r.Prefix != "" {
			bad(field+".client_id", "%q is robots[%d]'s client id too: the broker would disconnect one of them", id, j)
		}
		clients[id] = i
		checkPlace(bad, field+".place", r.Place)
		tr := r.PlaceTranslations
		for _, t := range []struct{ lang, value string }{{"fr", tr.FR}, {"de", tr.DE}, {"zh", tr.ZH}} {
			f := field + ".place_translations." + t.lang
			checkPlace(bad, f, t.value)
			if strings.TrimSpace(t.value) != "" && strings.TrimSpace(r.Place) == "" {
				bad(f, "needs %s.place: it translates the robot's place", field)
			}
		}
	}
}

// robotClientID is the MQTT client id of a robot of robots:.
func (c *Config) robotClientID(r RobotConfig) string {
	if r.ClientID != "" {
		return r.ClientID
	}
	return c.MQTT.ClientID + "-" + strings.ReplaceAll(r.Prefix, "/", "-")
}

// RobotSpec is one robot as the app builds it, top-level values filled in.
type RobotSpec struct {
	Name     string // the topic prefix: names the session, the inbox and the topics
	ClientID string
	Engine   string
	Roles    map[string]string // role → profile, every role
	Fallback []string
	Language nadine.Language
	Persona  nadine.Persona
	Place    string // as configured ("" for the built-in place)
	// PlaceTranslations are Place's translations that are set.
	PlaceTranslations map[nadine.Language]string
	// Camera is the robot's camera (serve), nil elsewhere.
	Camera nadine.Camera
}

// RobotSpecs returns one robot per robots: entry, or the one robot of
// mqtt.prefix (the configuration is valid).
func (c *Config) RobotSpecs() []RobotSpec {
	one := RobotSpec{Name: c.MQTT.Prefix, ClientID: c.MQTT.ClientID, Engine: c.Engine, Roles: c.Models.Roles,
		Fallback: c.Models.Fallback, Language: c.sessionLanguage(), Place: c.Place,
		PlaceTranslations: c.PlaceTranslations.byLanguage()}
	if one.Name == "" {
		one.Name = web.DefaultRobotName
	}
	if len(c.Robots) == 0 {
		one.Persona = c.Persona()
		return []RobotSpec{one}
	}
	out := make([]RobotSpec, 0, len(c.Robots))
	for _, r := range c.Robots {
		s := one
		s.Name, s.ClientID = r.Prefix, c.robotClientID(r)
		if r.Engine != "" {
			s.Engine = r.Engine
		}
		if len(r.Models.Roles) > 0 {
			s.Roles = make(map[string]string, len(c.Models.Roles))
			for role, p := range c.Models.Roles {
				s.Roles[role] = p
			}
			for role, p := range r.Models.Roles {
				s.Roles[role] = p
			}
		}
		if r.Models.Fallback != nil {
			s.Fallback = r.Models.Fallback
		}
		if r.Language != "" {
			s.Language, _ = nadine.ParseLanguage(r.Language)
		}
		if strings.TrimSpace(r.Place) != "" {
			s.Place, s.PlaceTranslations = r.Place, r.PlaceTranslations.byLanguage()
		}
		s.Persona = nadine.DefaultPersona().WithPlace(s.Place, s.PlaceTranslations)
		out = append(out, s)
	}
	return out
}
