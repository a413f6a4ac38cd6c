package config

import (
	"reflect"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/configtest"
)

// TestRobotSpecs: each robot of robots: takes the top-level value of every
// field it leaves out, and its own where it gives one.
func TestRobotSpecs(t *testing.T) {
	file := `engine: react
language: de
place: at MIRALab
place_translations: {fr: au MIRALab}
models:
  profiles:
    big: {base_url: 'http://x/v1', model: big}
    small: {base_url: 'http://x/v1', model: small}
  fallback: [small]
mqtt: {client_id: museum}
robots:
  - prefix: lobby
  - prefix: hall
    client_id: hall-1
    language: fr
    engine: graph
    place: in the hall of the museum
    place_translations: {fr: dans le hall du musée}
    models: {roles: {response: big, orchestrator: small}, fallback: []}
  - prefix: museum/cafe
    models: {fallback: [big]}
`
	cfg, err := Load(writeConfig(t, file), envMap(map[string]string{"HOME": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	specs := cfg.RobotSpecs()
	if len(specs) != 3 {
		t.Fatalf("%d robots, want 3", len(specs))
	}
	lobby, hall, cafe := specs[0], specs[1], specs[2]
	check := func(name string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("lobby name", lobby.Name, "lobby")
	check("lobby client id", lobby.ClientID, "museum-lobby")
	check("lobby engine", lobby.Engine, "react")
	check("lobby language", lobby.Language, nadine.German)
	check("lobby place", lobby.Persona.Place.In(nadine.French), "au MIRALab")
	check("lobby fallback", lobby.Fallback, []string{"small"})
	check("lobby response", lobby.Roles["response"], "default")

	check("hall client id", hall.ClientID, "hall-1")
	check("hall engine", hall.Engine, "graph")
	check("hall language", hall.Language, nadine.French)
	check("hall place", hall.Persona.Place.In(nadine.English), "in the hall of the museum")
	check("hall place in French", hall.Persona.Place.In(nadine.French), "dans le hall du musée")
	check("hall response", hall.Roles["response"], "big")
	check("hall orchestrator", hall.Roles["orchestrator"], "small")
	check("hall intent classifier", hall.Roles["intent_classifier"], "default")
	check("hall fallback", len(hall.Fallback), 0)

	check("cafe client id", cafe.ClientID, "museum-museum-cafe")
	check("cafe fallback", cafe.Fallback, []string{"big"})
	// A robot's roles never change the process's.
	check("models.roles.response", cfg.Models.Roles["response"], "default")

	// Without robots: one robot on mqtt.prefix.
	one, err := Load("", envMap(map[string]string{"HOME": t.TempDir(), "NADINE_MQTT_PREFIX": "robot7"}))
	if err != nil {
		t.Fatal(err)
	}
	got := one.RobotSpecs()
	if len(got) != 1 || got[0].Name != "robot7" || got[0].ClientID != "nadine" || got[0].Language != nadine.English {
		t.Errorf("one robot: %+v", got)
	}
}

// TestRobotsFromTheEnvironment: NADINE_ROBOTS lists prefixes, each with
// its language.
func TestRobotsFromTheEnvironment(t *testing.T) {
	cfg, err := loadConfigFrom("", envOf(map[string]string{"HOME": t.TempDir(), "NADINE_ROBOTS": " lobby, hall:fr ,,"}))
	if err != nil {
		t.Fatal(err)
	}
	want := Robots{{Prefix: "lobby"}, {Prefix: "hall", Language: "fr"}}
	if !reflect.DeepEqual(cfg.Robots, want) {
		t.Fatalf("robots = %+v, want %+v", cfg.Robots, want)
	}
	if len(cfg.warnings) > 0 {
		t.Errorf("warnings: %v", cfg.warnings)
	}
	if _, err := loadConfigFrom("", envOf(map[string]string{"HOME": t.TempDir(), "NADINE_ROBOTS": "lobby:xx"})); err == nil ||
		!strings.Contains(err.Error(), "robots[0].language") {
		t.Errorf("a bad language from the environment: err = %v", err)
	}
}

// TestRobotRules gives every rule of robots: a configuration that breaks
// it, and checks that the error blames that field and no other.
func TestRobotRules(t *testing.T) {
	testRules(t, robotRules, configtest.RobotRules())
	// A typo in a robot's field is found with the file's line.
	_, err := loadConfigFrom(writeConfig(t, "robots:\n  - prefix: a\n    langauge: fr\n"), envOf(map[string]string{"HOME": t.TempDir()}))
	if err == nil || !strings.Contains(err.Error(), "nadine.yaml:3: robots[0].langauge: unknown field (did you mean robots[0].language?)") {
		t.Errorf("typo: err = %v", err)
	}
}
