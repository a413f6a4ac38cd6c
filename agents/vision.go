package agents

import (
	"context"

	"github.com/nadine-robot/nadine"
)

// visionAgent is the vision_agent node: a capture from the camera,
// described by the vision model for the planned question.
type visionAgent struct {
	enabled bool // Options.VisionAgent with a camera
	camera  nadine.Camera
	model   nadine.ChatModel // role vision
	prompts prompts
}

// newVisionAgent returns the vision agent of the engine's camera and
// vision model.
func newVisionAgent(e *Engine) *visionAgent {
	return &visionAgent{enabled: e.opts.VisionAgent && e.opts.Camera != nil, camera: e.opts.Camera,
		model: e.model(RoleVision), prompts: e.prompts}
}

// run is the node.
func (a *visionAgent) run(ctx context.Context, s State) (State, error) {
	step, s := popStep(s, NodeVision)
	s.VisionResults = appendResult(s.VisionResults, a.look(ctx, s.live, s.Language, step.Message))
	return s, nil
}

func (a *visionAgent) look(ctx context.Context, t *turn, lang nadine.Language, question string) string {
	tr := nadine.TraceFrom(ctx)
	if !a.enabled {
		tr.Notef("vision_agent: disabled")
		return VisionUnavailable
	}
	// The capture and the vision model take a while: say so.
	t.askFiller()
	img, err := a.camera.Capture(ctx)
	if err != nil {
		tr.Fail("camera", err)
		return "Nadine's camera could not take a picture just now."
	}
	ans, err := describeImage(ctx, a.model, a.prompts, question, img.DataURL())
	if err != nil {
		tr.Fail("vision_agent", err)
		return "Nadine could not make out what her camera sees."
	}
	return ans
}

// describeImage asks the vision model about an image (a data URL).
func describeImage(ctx context.Context, m nadine.ChatModel, p prompts, question, image string) (string, error) {
	content, err := ask(ctx, m, nadine.ChatRequest{Role: RoleVision, Messages: []nadine.ChatMessage{
		{Role: nadine.RoleSystem, Content: p.render("vision", nil)},
		{Role: nadine.RoleUser, Content: question, Images: []string{image}},
	}})
	if err != nil {
		return "", err
	}
	ans := answerText(content, "description", "answer", "caption", "text", "response")
	noteText(ctx, RoleVision, content, ans)
	if ans == "" {
		return "", nadine.Errorf(nadine.EBADOUTPUT, "agents: empty image description")
	}
	return ans, nil
}
