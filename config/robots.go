package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/web"
)

// RobotConfig is one robot that `nadine serve` serves (robots:). Each robot
// has its own MQTT topics (its prefix names it), session, turn queue,
// transcript inbox and engine; the store, the model clients, the tools and
// the monitor are the process's. Fields left empty take the top-level
// value (engine, place, language.default, models.roles, models.fallback).
type RobotConfig struct {
	// Prefix is the robot's topic prefix and its name: its session is
	// robot/<prefix>/session, its inbox is keyed by it. Unique across the
	// fleet.
	Prefix string `yaml:"prefix"`
	// ClientID is the MQTT client id of the robot's connection (default
	// <mqtt.client_id>-<prefix>, "/" written "-"). Unique across the
	// broker.
	ClientID string `yaml:"client_id"`
	// Place says where this robot stands (default: place).
	Place string `yaml:"place"`
	// PlaceTranslations says this robot's place in the other languages;
	// it needs Place (a robot without its own place takes the top-level
	// translations with the top-level place).
	PlaceTranslations PlaceTranslationsConfig `yaml:"place_translations"`
	// Language is the robot's session language at start and after each
	// end of interaction (default: language.default).
	Language string `yaml:"language"`
	// Engine is react, graph or offline (default: engine).
	Engine string `yaml:"engine"`
	// Models gives this robot's engine other profiles than the process's.
	Models RobotModelsConfig `yaml:"models"`
}

// RobotModelsConfig is what a robot changes of models: the profiles of its
// engine's roles, and its fallback profiles.
type RobotModelsConfig struct {
	// Roles maps engine roles to profiles of models.profiles, over
	// models.roles. The roles every robot of the process shares
	// (embeddings, translator, songwriter) cannot be set per robot.
	Roles map[string]string `yaml:"roles"`
	// Fallback replaces models.fallback for this robot when given.
	Fallback []string `yaml:"fallback"`
}

// Robots are the robots of a `nadine serve` process; empty, it serves one
// robot on mqtt.prefix.
type Robots []RobotConfig

// SetEnv reads NADINE_ROBOTS: topic prefixes, comma-separated, each
// optionally with its language ("lobby,hall:fr"); the other fields take
// the top-level values.
func (rs *Robots) SetEnv(s string) error {
	var out Robots
	for _, p := range envPairs(s) {
		out = append(out, RobotConfig{Prefix: p[0], Language: p[1]})
	}
	*rs = out
	return nil
}

// sharedRoles are the roles served once per process, whatever the robot:
// the embedder (the fleet's memory is one vector space), the translator
// and the songwriter (tools every robot shares).
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

// validateRobots checks robots: each robot's fields, prefixes and client
// ids unique, places like place.
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

// RobotSpec is one robot as the app builds it: the robots: entry with the
// top-level values filled in (or the one robot of the top-level fields).
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

// RobotSpecs returns the robots the configuration describes, in order: one
// per robots: entry, or the one robot of mqtt.prefix when there is none.
// The configuration is valid.
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
