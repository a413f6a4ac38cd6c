package main

import (
	"context"
	"fmt"
	"log/slog"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/config"
	"github.com/nadine-robot/nadine/internal/llmtest"
)

// camera is a robot's camera in a test: it names its robot.
type camera string

func (c camera) Capture(context.Context) (nadine.Image, error) {
	return nadine.Image{Data: []byte(c), Type: "image/jpeg"}, nil
}

// TestAppBuildsEachRobot: every robot of robots: gets its own engines and
// dialogue manager (its own graph engine, and with it its own background
// summary), its language and its engine; robots standing at the same place
// share one offline engine, which is immutable.
func TestAppBuildsEachRobot(t *testing.T) {
	srv := llmtest.New(t)
	body := fmt.Sprintf("engine: graph\ndata_dir: %s\nembeddings: {provider: lexical}\n%s", t.TempDir(), modelConfig(srv.URL())) + `robots:
  - {prefix: lobby, place: in the lobby}
  - {prefix: hall, engine: react, language: fr}
  - {prefix: cafe, place: in the lobby}
  - {prefix: shop, engine: offline}
`
	cfg, err := config.Load(writeConfig(t, body), envMap(map[string]string{"HOME": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	specs := cfg.RobotSpecs()
	for i := range specs {
		specs[i].Camera = camera(specs[i].Name)
	}
	a, err := newApp(context.Background(), cfg, envMap(nil), slog.New(slog.DiscardHandler), withRobots(specs))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if len(a.robots) != 4 || a.manager != a.robots[0].manager {
		t.Fatalf("%d robots, the app's manager the first's: %v", len(a.robots), a.manager == a.robots[0].manager)
	}
	lobby, hall, cafe, shop := a.robots[0], a.robots[1], a.robots[2], a.robots[3]
	for _, r := range []struct {
		robot    *appRobot
		engine   string
		engines  int
		language nadine.Language
	}{{lobby, "graph", 2, nadine.English}, {hall, "react", 2, nadine.French}, {cafe, "graph", 2, nadine.English}, {shop, "offline", 1, nadine.English}} {
		if r.robot.engine != r.engine || len(r.robot.engines) != r.engines || r.robot.manager.Language() != r.language {
			t.Errorf("%s: engine %s, %d engines, language %s; want %s, %d, %s", r.robot.spec.Name, r.robot.engine,
				len(r.robot.engines), r.robot.manager.Language(), r.engine, r.engines, r.language)
		}
	}
	if lobby.engines[0] == cafe.engines[0] {
		t.Error("two robots share one graph engine")
	}
	last := func(r *appRobot) nadine.Engine { return r.engines[len(r.engines)-1] }
	if last(lobby) != last(cafe) {
		t.Error("the robots in the lobby have two offline engines")
	}
	if last(lobby) == last(hall) || last(hall) != last(shop) {
		t.Error("robots at different places share an offline engine, or robots at the same place do not")
	}
	if lobby.manager == cafe.manager {
		t.Error("two robots share one dialogue manager")
	}
}
