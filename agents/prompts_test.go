package agents

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
	goldenfile "github.com/nadine-robot/nadine/internal/golden"
	"github.com/nadine-robot/nadine/visual"
)

func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, name, []byte(got))
}

// TestPromptsGolden renders every prompt, so that a prompt change shows up
// in review.
func TestPromptsGolden(t *testing.T) {
	p, err := loadPrompts()
	if err != nil {
		t.Fatal(err)
	}
	hist := []nadine.Message{
		{Role: nadine.RoleUser, Content: "What's the weather in Geneva?", Name: "Alex"},
		{Role: nadine.RoleAssistant, Content: "It is sunny and 18 degrees."},
	}
	router := routerPrompt{Tools: []toolInfo{{"Google Search", "Use it for facts."}, {"Weather App", "Use it for the weather. Input: City,CC."}},
		Names: "Google Search, Weather App"}
	for name, text := range map[string]string{
		"intent":               p.render("intent", nil),
		"appraisal":            p.render("appraisal", nil),
		"appraisal_input":      p.render("appraisal_input", newAppraisalInput("You are wonderful!", "happy", "Observation: Alex talked about skiing.")),
		"appraisal_input_bare": p.render("appraisal_input", newAppraisalInput("Hello", "", "")),
		"context_summary":      p.render("context_summary", nil) + "\n---\n" + conversationData(hist),
		"orchestrator":         p.render("orchestrator", nil),
		"orchestrator_input":   p.render("orchestrator_input", newOrchestratorInput("The user asked about the weather in Geneva.", "And tomorrow?")),
		"search_router":        p.render("search_router", router),
		"search_answer":        p.render("search_answer", nil) + "\n---\n" + p.render("search_answer_input", searchAnswerInput{"Weather in Geneva tomorrow?", "Weather App", "| Geneva, CH: light rain, 12 degrees Celsius"}),
		"vision":               p.render("vision", nil),
		"memory_update":        p.render("memory_update", nil) + "\n---\n" + p.render("memory_update_input", newExtractionInput(hist, "I work at CERN.")),
		"episode":              p.render("episode", nil),
	} {
		golden(t, name, text)
	}
}

// TestResponseRequestGolden renders a whole response request: system
// prompt, window and composite packet.
func TestResponseRequestGolden(t *testing.T) {
	p, err := loadPrompts()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 14, 5, 0, 0, time.UTC)
	// The visual retriever reads the recalled scene's picture.
	e := &responder{prompts: p, now: func() time.Time { return now }, scenes: &visual.Retriever{}}
	a := affect.Appraise(affect.New(affect.NadinePersonality(), now), nadine.Joy, 0.6, now)
	s := State{
		Messages: []nadine.Message{
			{Role: nadine.RoleUser, Content: "Hello Nadine!", Name: "Alex"},
			{Role: nadine.RoleAssistant, Content: "Hello Alex!"},
			{Role: nadine.RoleUser, Content: "Do you remember me? And what's the weather?", Name: "Alex"},
		},
		Intent:   IntentContinue,
		Language: nadine.French,
		UserInfo: UserInfo{ID: "alex-1", Name: "Alex", Profile: &nadine.Profile{UserID: "alex-1", UserName: "Alex",
			CurrentCompany: "CERN", CurrentPosition: "physicist", Location: "Geneva", Hobbies: []string{"skiing"}}},
		UserEmotion:        "happy",
		Affect:             a,
		EpisodeMemory:      "Observation: Alex talked about skiing in Verbier.",
		ConversationMemory: "Alex: The snow was perfect.",
		VisualMemory: &VisualMemory{SceneID: "s1", ImagePath: filepath.Join("testdata", "camera.jpg"),
			Description: "Alex in a blue coat in front of the lab", Time: time.Date(2026, 10, 1, 10, 0, 0, 0, time.UTC)},
		SearchResults:      "It is 12 degrees with light rain in Geneva.",
		VisionResults:      "The person wears a red scarf.",
		KnowledgeRetrieval: "MIRALab: a laboratory of the University of Geneva.",
		AssistantNote:      "You will remember their current company.",
	}
	var b strings.Builder
	for _, m := range e.responseMessages(context.Background(), s) {
		b.WriteString("=== " + string(m.Role) + "\n" + m.Content + "\n")
		for _, img := range m.Images {
			b.WriteString("[image " + img[:strings.IndexByte(img, ',')] + "]\n")
		}
	}
	golden(t, "response_request", b.String())
}

func TestGreetingPacketGolden(t *testing.T) {
	p, err := loadPrompts()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	e := &responder{prompts: p, now: func() time.Time { return now }}
	s := State{Messages: []nadine.Message{{Role: nadine.RoleUser, Content: "Hello!"}}, Intent: IntentFirstGreeting,
		Language: nadine.English, Affect: affect.New(affect.NadinePersonality(), now)}
	msgs := e.responseMessages(context.Background(), s)
	golden(t, "response_greeting", msgs[0].Content+"\n---\n"+msgs[len(msgs)-1].Content)
}
