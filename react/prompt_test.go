package react

import (
	"context"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	goldenfile "github.com/nadine-robot/nadine/internal/golden"
)

type fakeTool struct{ name, desc string }

func (f fakeTool) Name() string        { return f.name }
func (f fakeTool) Description() string { return f.desc }
func (f fakeTool) Call(context.Context, nadine.ToolInput) (string, error) {
	return "ok", nil
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, name, []byte(got))
}

func TestPromptGolden(t *testing.T) {
	p, err := loadPrompts()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 14, 5, 0, 0, time.UTC)
	req := nadine.Request{
		Turn: nadine.Turn{Text: "And tomorrow?", Language: nadine.English, UserID: "alex-1", UserName: "Alex", UserEmotion: "Happy", Time: now},
		Mood: nadine.AffectState{Label: nadine.Joy, Intensity: 0.6},
	}
	tools := []nadine.Tool{
		fakeTool{"Weather App", "Use it for the current weather in a place. Input: City,CC."},
		fakeTool{"Nadine behaviour", "Use it when the user asks you to smile, be angry or wave. Input: smile, anger or wave."},
	}
	human := render(p.human, humanInput(req, tools,
		[]string{"Nadine is a social humanoid robot."},
		[]string{"[2026-11-29 10:00:00] Alex: I love skiing.\n[2026-11-29 10:00:05] Nadine: How wonderful!"}, now))
	golden(t, "human", human)
	golden(t, "system", render(p.system, struct{ Place string }{"at MIRALab, University of Geneva, in Switzerland"}))
	golden(t, "observation", render(p.observation, observationData{"Weather App", "Tell the human: 12 degrees Celsius, light rain.", "And tomorrow?", false}))
	golden(t, "observation_last", render(p.observation, observationData{"Weather App", render(p.repeated, nil), "And tomorrow?", true}))
	native := humanInput(req, tools, nil, nil, now)
	native.NativeTools = true
	golden(t, "human_tools", render(p.human, native))
	golden(t, "parse_error", render(p.parseError, struct{ Error, Input string }{`invalid emotion "glee"`, "Hi"}))
	golden(t, "contextualize", render(p.contextualize, nil))

	// The unknown user without tools, knowledge or memories.
	bare := render(p.human, humanInput(nadine.Request{Turn: nadine.Turn{Text: "Hi", Time: now}}, nil, nil, nil, now))
	golden(t, "human_bare", bare)
}
