package agents_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/agents"
)

func TestParseIntent(t *testing.T) {
	tests := map[string]agents.Intent{
		"first_greeting":                 agents.IntentFirstGreeting,
		"First Greeting":                 agents.IntentFirstGreeting,
		"`first-greeting`":               agents.IntentFirstGreeting,
		"greeting":                       agents.IntentFirstGreeting,
		"Intent: end_conversation.":      agents.IntentEndConversation,
		"goodbye":                        agents.IntentEndConversation,
		`{"intent": "update_user_info"}`: agents.IntentUpdateUserInfo,
		`{"Intent": "Language Change", "confidence": 0.9}`:     agents.IntentLanguageChange,
		"```json\n{\"label\": \"continue_conversation\"}\n```": agents.IntentContinue,
		"The intent of this message is first_greeting.":        agents.IntentFirstGreeting,
		"<think>They say hi.</think>\nfirst_greeting":          agents.IntentFirstGreeting,
		"**update_user_info** — the person gives their name.":  agents.IntentUpdateUserInfo,
		"This is a question, so: continue_conversation":        agents.IntentContinue,
		// Reasoning first: the label it concludes with, not the first it names.
		"The person says hello, which looks like a first_greeting, but they were greeted already, so the answer is continue_conversation.": agents.IntentContinue,
		"They say 'bye' but only to the topic; this is continue_conversation, not end_conversation.":                                       agents.IntentContinue,
		"Thought: it could be a greeting.\nIntent: update_user_info":                                                                       agents.IntentUpdateUserInfo,
		"end_conversation. The person says goodbye, not first_greeting.":                                                                   agents.IntentEndConversation,
		"{'intent': 'language_change',}": agents.IntentLanguageChange,
		"order_pizza":                    "",
		"":                               "",
	}
	for in, want := range tests {
		if got := agents.ParseIntent(in); got != want {
			t.Errorf("ParseIntent(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParsePlan(t *testing.T) {
	tests := []struct {
		in        string
		want      []agents.PlanStep
		wantNotes []string
		bad       bool
	}{
		{in: `{"plan": [{"agent": "search_agent", "message": "weather in Geneva", "tool": "Weather App"}]}`,
			want: []agents.PlanStep{{Agent: agents.NodeSearch, Message: "weather in Geneva", Tool: "Weather App"}}},
		{in: `{"plan": [{"agent": "knowledge", "message": "MIRALab"}, {"agent": "wikipedia_agent", "message": "Nadia Thalmann"}]}`,
			want:      []agents.PlanStep{{Agent: agents.NodeKnowledge, Message: "MIRALab"}, {Agent: agents.NodeKnowledge, Message: "Nadia Thalmann"}},
			wantNotes: []string{`agent "knowledge" read as knowledge_rag_agent`, `agent "wikipedia_agent" read as knowledge_rag_agent`}},
		{in: `{"steps": [{"Agent": "Search Agent", "query": "CERN news"}]}`,
			want: []agents.PlanStep{{Agent: agents.NodeSearch, Message: "CERN news"}}},
		{in: "Here is the plan:\n```json\n[{\"agent_name\": \"vision\", \"question\": \"what do I hold?\"}]\n```",
			want: []agents.PlanStep{{Agent: agents.NodeVision, Message: "what do I hold?"}}},
		{in: `{"plan": ["knowledge_rag_agent"]}`, want: []agents.PlanStep{{Agent: agents.NodeKnowledge, Message: "Hi"}}},
		{in: `{"agent": "Google News", "message": "latest news"}`,
			want: []agents.PlanStep{{Agent: agents.NodeSearch, Message: "latest news", Tool: "Google News"}}},
		{in: `{"plan": []}`, want: nil},
		{in: `{"plan": "none"}`, want: nil},
		{in: `{"plan": [{"agent": "response_agent"}, {"agent": "launch_rocket"}]}`, want: nil,
			wantNotes: []string{"response_agent step ignored", `unknown agent "launch_rocket" dropped`}},
		{in: `{"plan": [{"agent": "search_agent", "message": `, bad: true},
		{in: "No tools are needed.", bad: true},
		// One line per step, as the prompt asks, and as models vary it.
		{in: "Google News: Geneva news today",
			want: []agents.PlanStep{{Agent: agents.NodeSearch, Message: "Geneva news today", Tool: "Google News"}}},
		{in: "none", want: nil},
		{in: "None.", want: nil},
		{in: "No agent needed", want: nil},
		{in: "`none`", want: nil},
		{in: "knowledge_rag_agent: What is MIRALab?",
			want: []agents.PlanStep{{Agent: agents.NodeKnowledge, Message: "What is MIRALab?"}}},
		{in: "- Weather App: \"weather in Geneva today\"\n- vision_agent: What is the person holding?",
			want: []agents.PlanStep{{Agent: agents.NodeSearch, Message: "weather in Geneva today", Tool: "Weather App"},
				{Agent: agents.NodeVision, Message: "What is the person holding?"}}},
		{in: "1. search_agent (Google News): CERN news\n2. knowledge: Nadia Magnenat Thalmann",
			want: []agents.PlanStep{{Agent: agents.NodeSearch, Message: "CERN news", Tool: "Google News"},
				{Agent: agents.NodeKnowledge, Message: "Nadia Magnenat Thalmann"}}},
		{in: "search_agent: Google Search: capital of Peru",
			want: []agents.PlanStep{{Agent: agents.NodeSearch, Message: "capital of Peru", Tool: "Google Search"}}},
		{in: "Plan:\nStep 1: **Google News**: latest Geneva news",
			want: []agents.PlanStep{{Agent: agents.NodeSearch, Message: "latest Geneva news", Tool: "Google News"}}},
		{in: "```\nGoogle Search - time in Tokyo now\n```",
			want: []agents.PlanStep{{Agent: agents.NodeSearch, Message: "time in Tokyo now", Tool: "Google Search"}}},
		{in: "<think>The person asks for news.</think>\nGoogle News: Geneva news",
			want: []agents.PlanStep{{Agent: agents.NodeSearch, Message: "Geneva news", Tool: "Google News"}}},
		{in: "vision_agent", want: []agents.PlanStep{{Agent: agents.NodeVision, Message: "Hi"}}},
		{in: "Here is the plan:\nknowledge_rag_agent: MIRALab's history",
			want: []agents.PlanStep{{Agent: agents.NodeKnowledge, Message: "MIRALab's history"}}},
		{in: `{"plan": [{"agent": "Google Search", "message": "capital of Peru"}]}`,
			want: []agents.PlanStep{{Agent: agents.NodeSearch, Message: "capital of Peru", Tool: "Google Search"}}},
		{in: "Google News (Google Search): CERN news",
			want: []agents.PlanStep{{Agent: agents.NodeSearch, Message: "CERN news", Tool: "Google News"}}},
		// The schema's shape: the prompt's lines in a list.
		{in: `{"plan": ["Google News: Geneva news today", "knowledge_rag_agent: MIRALab"]}`,
			want: []agents.PlanStep{{Agent: agents.NodeSearch, Message: "Geneva news today", Tool: "Google News"},
				{Agent: agents.NodeKnowledge, Message: "MIRALab"}}},
		{in: `{"plan": []}`, want: nil},
		{in: `{"plan": ["none"]}`, want: nil},
		// The same step twice runs once.
		{in: "Google News: Geneva news\nGoogle News: geneva news.",
			want:      []agents.PlanStep{{Agent: agents.NodeSearch, Message: "Geneva news", Tool: "Google News"}},
			wantNotes: []string{"planned twice"}},
		{in: "response_agent: say hello", bad: true},
		{in: "I think Nadine can answer this herself.", bad: true},
	}
	for _, tt := range tests {
		steps, err := agents.ParsePlan(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("ParsePlan(%q) = %+v, want an error", tt.in, steps)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParsePlan(%q): %v", tt.in, err)
			continue
		}
		got, notes := agents.ValidatePlan(steps, "Hi", 4)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("plan of %q = %+v, want %+v", tt.in, got, tt.want)
		}
		for _, w := range tt.wantNotes {
			if !strings.Contains(strings.Join(notes, "|"), w) {
				t.Errorf("notes of %q = %q, want %q", tt.in, notes, w)
			}
		}
	}
}

func TestParseExtraction(t *testing.T) {
	tests := []struct {
		in   string
		want agents.Extraction
		bad  bool
	}{
		{in: `{"user_name":"Alex","current_company":"CERN","current_position":"engineer","location":"Geneva","hobbies":["skiing"],"interests":["physics"]}`,
			want: agents.Extraction{UserName: "Alex", CurrentCompany: "CERN", CurrentPosition: "engineer", Location: "Geneva", Hobbies: []string{"skiing"}, Interests: []string{"physics"}}},
		{in: "```json\n{\"name\": \"Alex\", \"company\": \"CERN\", \"job\": \"engineer\", \"city\": \"Geneva\", \"hobbies\": \"skiing, chess\"}\n```",
			want: agents.Extraction{UserName: "Alex", CurrentCompany: "CERN", CurrentPosition: "engineer", Location: "Geneva", Hobbies: []string{"skiing", "chess"}}},
		{in: `{"user_info": {"user_name": "Zoe", "location": "N/A", "hobbies": null, "interests": ["none"]}}`,
			want: agents.Extraction{UserName: "Zoe"}},
		{in: `Sure! {"userName": "Li Wei", "currentCompany": "unknown"}`, want: agents.Extraction{UserName: "Li Wei"}},
		{in: `user_name = Zoe`, bad: true},
		{in: `["Alex"]`, bad: true},
	}
	for _, tt := range tests {
		got, err := agents.ParseExtraction(tt.in)
		if (err != nil) != tt.bad {
			t.Errorf("ParseExtraction(%q): %v", tt.in, err)
			continue
		}
		if !tt.bad && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseExtraction(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestParseEpisode(t *testing.T) {
	tests := []struct {
		in   string
		want [4]string
		bad  bool
	}{
		{in: `{"observation":"They talked.","thought":"Nice.","action":"Answered.","result":"Bye."}`, want: [4]string{"They talked.", "Nice.", "Answered.", "Bye."}},
		{in: `{"Observations": "They talked.", "Thoughts": "Nice.", "Outcome": "Bye."}`, want: [4]string{"They talked.", "Nice.", "", "Bye."}},
		{in: `{"observation": "They talked"`, bad: true},
		{in: `{"thought": "hmm"}`, bad: true},
	}
	for _, tt := range tests {
		got, err := agents.ParseEpisode(tt.in)
		if (err != nil) != tt.bad || (!tt.bad && got != tt.want) {
			t.Errorf("ParseEpisode(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestParseRoute(t *testing.T) {
	names := []string{"Google Search", "Google News", "Weather App"}
	tests := []struct{ in, tool, query string }{
		{`{"tool": "Weather App", "query": "London,GB"}`, "Weather App", "London,GB"},
		{`{"tool_name": "weather_app", "input": {"city": "London", "country": "GB"}}`, "Weather App", "London,GB"},
		{`{"Tool": "google news", "search_query": "CERN"}`, "Google News", "CERN"},
		{"Google Search", "Google Search", ""},
		{"I'd use google", "", ""},
	}
	for _, tt := range tests {
		tool, query, err := agents.ParseRoute(tt.in, names)
		if tt.tool == "" {
			if err == nil {
				t.Errorf("ParseRoute(%q) = %q, want an error", tt.in, tool)
			}
			continue
		}
		if err != nil || tool != tt.tool || query != tt.query {
			t.Errorf("ParseRoute(%q) = %q, %q, %v; want %q, %q", tt.in, tool, query, err, tt.tool, tt.query)
		}
	}
}

func TestAnswerText(t *testing.T) {
	tests := map[string]string{
		"The person asked about Geneva.":                    "The person asked about Geneva.",
		`"The person asked about Geneva."`:                  "The person asked about Geneva.",
		"Summary: The person asked about Geneva.":           "The person asked about Geneva.",
		`{"summary": "The person asked about Geneva."}`:     "The person asked about Geneva.",
		"<think>ok</think>\nThe person asked about Geneva.": "The person asked about Geneva.",
		"```\nThe person asked about Geneva.\n```":          "The person asked about Geneva.",
	}
	for in, want := range tests {
		if got := agents.AnswerText(in, "summary"); got != want {
			t.Errorf("answerText(%q) = %q, want %q", in, got, want)
		}
	}
}
