package react

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"text/template"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/fence"
)

//go:embed prompts/*.tmpl
var promptFS embed.FS

// prompts holds the parsed templates. It is built once per engine.
type prompts struct {
	system, human, observation, parseError, contextualize, repeated *template.Template
}

func loadPrompts() (*prompts, error) {
	p := &prompts{}
	for name, dst := range map[string]**template.Template{
		"system": &p.system, "human": &p.human, "observation": &p.observation,
		"parse_error": &p.parseError, "contextualize": &p.contextualize, "repeated": &p.repeated,
	} {
		t, err := template.ParseFS(promptFS, "prompts/"+name+".tmpl")
		if err != nil {
			return nil, fmt.Errorf("react: prompt %s: %w", name, err)
		}
		*dst = t
	}
	return p, nil
}

// toolInfo is a tool as the prompt shows it.
type toolInfo struct{ Name, Description string }

// humanData fills the human turn; Knowledge, Memories and Person are fenced
// data sections, since they come from outside the rules.
type humanData struct {
	Tools     []toolInfo
	ToolNames string
	// NativeTools says the tools are offered as native tool calls
	// (structured mode tools): a tool is called, not written as JSON.
	NativeTools bool
	Knowledge   string // the knowledge base section, "" when nothing was retrieved
	Memories    string // the long-term memory section, "" when none was retrieved
	Person      string // the user's name and facial emotion
	Mood        string
	Date, Time  string
	Input       string
}

func render(t *template.Template, data any) string {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		// The templates are embedded and tested; a failure is a bug.
		panic(fmt.Sprintf("react: render %s: %v", t.Name(), err))
	}
	return strings.TrimRight(b.String(), "\n")
}

// observationData fills the observation template; Last says no more tool
// may be called in the turn.
type observationData struct {
	Tool, Observation, Input string
	Last                     bool
}

// humanInput builds the data of the human turn.
func humanInput(req nadine.Request, tools []nadine.Tool, knowledge, memories []string, now time.Time) humanData {
	d := humanData{
		Date:  now.Format("Monday, 2 January 2006"),
		Time:  now.Format("15:04"),
		Input: req.Turn.Text,
	}
	if len(knowledge) > 0 {
		lines := make([]string, len(knowledge))
		for i, k := range knowledge {
			lines[i] = "- " + fence.Clean(k)
		}
		d.Knowledge, _ = fence.Block(fence.Knowledge, lines, 0)
	}
	if len(memories) > 0 {
		var lines []string
		for i, m := range memories {
			if i > 0 {
				lines = append(lines, "---")
			}
			lines = append(lines, fence.Lines(m)...)
		}
		d.Memories, _ = fence.Block(fence.Memory, lines, 0)
	}
	emotion := strings.ToLower(strings.TrimSpace(req.Turn.UserEmotion))
	if emotion == "" {
		emotion = "neutral"
	}
	d.Person, _ = fence.Block(fence.Context, []string{"User name: " + fence.Clean(displayName(req.Turn)),
		"The user's facial emotion: " + fence.Clean(emotion)}, 0)
	if m := req.Mood; m.Label != "" && m.Label != nadine.Neutral {
		d.Mood = fmt.Sprintf("%s (intensity %d of 10)", m.Label, int(m.Intensity*10+0.5))
	}
	names := make([]string, 0, len(tools)+1)
	for _, t := range tools {
		d.Tools = append(d.Tools, toolInfo{t.Name(), t.Description()})
		names = append(names, t.Name())
	}
	if len(names) == 0 {
		d.ToolNames = "no tools available"
	} else {
		d.ToolNames = strings.Join(names, ", ")
	}
	return d
}

// displayName is the name the prompt uses for the user.
func displayName(t nadine.Turn) string {
	switch {
	case t.UserName != "":
		return t.UserName
	case t.UserID != "" && t.UserID != nadine.UnknownUser:
		return t.UserID
	}
	return nadine.UnknownUser
}

// staticPrompt renders every text the prompts can hold without the turn's data,
// for the echo check of what is spoken.
func (e *Engine) staticPrompt() nadine.Prompt {
	d := humanInput(nadine.Request{}, e.opts.Tools, nil, nil, time.Time{})
	d.Person, d.Date, d.Time = "", "", ""
	native := d
	native.NativeTools = true
	system := render(e.prompts.system, struct{ Place string }{e.opts.Place})
	pr := nadine.Prompt{Role: "react_agent", Instructions: []string{
		system,
		render(e.prompts.human, d),
		render(e.prompts.human, native),
		render(e.prompts.observation, observationData{Last: true}),
		render(e.prompts.parseError, struct{ Error, Input string }{}),
		render(e.prompts.repeated, nil),
	}}
	if _, persona, ok := strings.Cut(system, "\n"); ok {
		pr.Persona = []string{persona}
	}
	return pr
}
