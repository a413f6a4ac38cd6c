package agents_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/openai"
)

// sample is what the scripted model needs of a sample: how to recognize
// its request, and the reference answer.
type sample struct {
	Name    string `json:"name"`
	Input   string `json:"input"`
	History []struct {
		Content string `json:"content"`
	} `json:"history"`
	Ideal string `json:"ideal"`
}

func (s sample) key(agent string) string {
	if (agent == agents.EvalEpisodicMemory || agent == agents.EvalContextualizer) && len(s.History) > 0 {
		return s.History[len(s.History)-1].Content
	}
	return s.Input
}

func readSamples(t *testing.T, agent string) []sample {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "samples", agent+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []sample
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("%s: %v", agent, err)
	}
	return out
}

// evalServer answers every sample's request with its reference answer,
// except the cases in wrong, answered with the given text.
func evalServer(t *testing.T, wrong map[string]string) func(role string) nadine.ChatModel {
	srv := llmtest.New(t)
	byRole := map[string][]struct {
		key, name, answer string
	}{}
	roles := map[string]string{
		agents.EvalIntent: agents.RoleIntent, agents.EvalUserInfo: agents.RoleMemoryUpdate,
		agents.EvalEpisodicMemory: agents.RoleMemoryUpdate, agents.EvalOrchestration: agents.RoleOrchestrator,
		agents.EvalSearchRouter: agents.RoleSearchRouter, agents.EvalSearchAnswer: agents.RoleSearchAnswer,
		agents.EvalVisionRouter: agents.RoleOrchestrator, agents.EvalVisionDescription: agents.RoleVision,
		agents.EvalResponse: agents.RoleResponse, agents.EvalContextualizer: agents.RoleContextSummary,
	}
	for _, a := range agents.EvalAgents() {
		for _, s := range readSamples(t, a) {
			ans := s.Ideal
			if w, ok := wrong[a+"/"+s.Name]; ok {
				ans = w
			}
			byRole[roles[a]] = append(byRole[roles[a]], struct{ key, name, answer string }{s.key(a), s.Name, ans})
		}
	}
	for role, cases := range byRole {
		srv.On(llmtest.MatchModel(role)).ReplyFunc(func(r llmtest.Request) string {
			best, answer := -1, "no sample matched"
			for _, c := range cases {
				if strings.Contains(r.LastUser(), c.key) && len(c.key) > best {
					best, answer = len(c.key), c.answer
				}
			}
			return answer
		})
	}
	return func(role string) nadine.ChatModel {
		c, err := openai.New(openai.Config{BaseURL: srv.URL(), Model: role, Profile: "small"})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
}

func TestEvalReferenceAnswersPass(t *testing.T) {
	res, err := agents.Eval(context.Background(), evalServer(t, nil), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != len(agents.EvalAgents()) {
		t.Fatalf("%d results, want one per agent", len(res))
	}
	for _, r := range res {
		if r.Cases < 8 {
			t.Errorf("%s: %d cases, want at least 8", r.Agent, r.Cases)
		}
		if r.PassRate() != 1 {
			t.Errorf("%s: pass rate %.2f with the reference answers; failures %+v", r.Agent, r.PassRate(), r.Failures)
		}
	}
}

func TestEvalCountsFailures(t *testing.T) {
	wrong := map[string]string{
		"intent/greeting":                     "continue_conversation",
		"intent/farewell":                     "language_change",
		"user_info/name_company_position":     `{"user_name":"Alex","current_company":"","current_position":"","location":"","hobbies":[],"interests":[]}`,
		"user_info/nothing_personal":          `{"user_name":"","current_company":"favourite colour","current_position":"","location":"","hobbies":[],"interests":[]}`, // a name made up ("Nadine fan") is no longer stored: the person never said it
		"episodic_memory/job_talk":            `{"observation":"Alex came.","thought":"","action":"x","result":"y"}`,
		"orchestration/weather":               `{"plan":[]}`,
		"orchestration/two_steps":             `{"plan":[{"agent":"knowledge_rag_agent","message":"MIRALab"},{"agent":"search_agent","message":"CERN"}]}`,
		"search_router/weather_london":        `{"tool":"Google Search","query":"London weather"}`,
		"search_answer/eiffel":                "It is tall. Very tall. Really very tall.",
		"vision_router/see_me":                `{"plan":[]}`,
		"vision_description/red_square_color": "I see a blue thing.",
		"response/weather_en":                 "Check https://weather.example.com for the weather.",
		"response/chinese":                    "Hello, I am Nadine, a social robot.",
		"contextualizer/job":                  "The user works somewhere. Nadine asked a question.",
	}
	res, err := agents.Eval(context.Background(), evalServer(t, wrong), "all")
	if err != nil {
		t.Fatal(err)
	}
	failed := map[string]string{}
	for _, r := range res {
		if r.Passed+len(r.Failures) != r.Cases {
			t.Errorf("%s: %d passed + %d failures != %d cases", r.Agent, r.Passed, len(r.Failures), r.Cases)
		}
		for _, f := range r.Failures {
			failed[r.Agent+"/"+f.Case] = f.Reason
		}
		if r.PassRate() >= 1 {
			t.Errorf("%s: pass rate %.2f despite wrong answers", r.Agent, r.PassRate())
		}
	}
	for k := range wrong {
		if _, ok := failed[k]; !ok {
			t.Errorf("%s passed with a wrong answer", k)
		}
	}
	if len(failed) != len(wrong) {
		t.Errorf("failures %v, want exactly the wrong cases", failed)
	}
	for k, want := range map[string]string{
		"response/weather_en":   "URL",
		"response/chinese":      "not in Chinese",
		"search_answer/eiffel":  "sentences",
		"orchestration/weather": "want [search_agent]",
	} {
		if !strings.Contains(failed[k], want) {
			t.Errorf("%s failed with %q, want a reason with %q", k, failed[k], want)
		}
	}
}

func TestEvalArguments(t *testing.T) {
	if _, err := agents.Eval(context.Background(), nil, "telepathy"); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("unknown agent: %v, want EINVALID", err)
	}
	res, err := agents.Eval(context.Background(), nil, agents.EvalIntent)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Passed != 0 || !strings.Contains(res[0].Failures[0].Reason, "no model") {
		t.Errorf("without a model: %+v", res)
	}
}

// TestEvalSelect: agent names and model role names both select samples.
func TestEvalSelect(t *testing.T) {
	tests := []struct {
		name string
		want []string
	}{
		{"intent", []string{agents.EvalIntent}},
		{agents.RoleIntent, []string{agents.EvalIntent}},
		{agents.RoleMemoryUpdate, []string{agents.EvalUserInfo, agents.EvalEpisodicMemory}},
		{agents.RoleOrchestrator, []string{agents.EvalOrchestration, agents.EvalVisionRouter}},
		{agents.RoleContextSummary, []string{agents.EvalContextualizer}},
		{"all", agents.EvalAgents()},
		{"", agents.EvalAgents()},
	}
	for _, tt := range tests {
		got, err := agents.EvalSelect(tt.name)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("EvalSelect(%q) = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	_, err := agents.EvalSelect("intent_clasifier")
	if nadine.ErrorCode(err) != nadine.EINVALID || !strings.Contains(err.Error(), "intent_classifier") || !strings.Contains(err.Error(), "user_info") {
		t.Errorf("unknown name: %v, want EINVALID listing agents and roles", err)
	}
	res, err := agents.Eval(context.Background(), nil, agents.RoleMemoryUpdate)
	if err != nil || len(res) != 2 || res[0].Role != agents.RoleMemoryUpdate || res[1].Role != agents.RoleMemoryUpdate {
		t.Errorf("Eval by role = %+v, %v", res, err)
	}
}
