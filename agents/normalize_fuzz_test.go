package agents_test

import (
	"testing"

	"github.com/nadine-robot/nadine/agents"
)

// FuzzParseIntent: any classifier answer gives one of the five intents or
// none.
func FuzzParseIntent(f *testing.F) {
	for _, s := range []string{"first_greeting", "First Greeting", "The intent of this message is first_greeting.",
		`{"intent": "end_conversation", "confidence": 0.93}`, "<think>They say hi.</think>\nfirst_greeting",
		"**update_user_info**", "Intent: language_change.", "goodbye", "order_pizza", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		if got := agents.ParseIntent(answer); got != "" && !got.Valid() {
			t.Fatalf("ParseIntent(%q) = %q", answer, got)
		}
	})
}

// FuzzParsePlan: any orchestrator answer gives a plan of known tool agents
// only, at most the step limit, each with a message.
func FuzzParsePlan(f *testing.F) {
	for _, s := range []string{`{"plan": [{"agent": "search_agent", "message": "weather in Geneva", "tool": "Weather App"}]}`,
		`{"plan": [{"agent": "knowledge", "message": "MIRALab"}, {"agent": "wikipedia_agent"}]}`,
		"Here is the plan:\n```json\n[{\"agent_name\": \"vision\", \"question\": \"what do I hold?\"}]\n```",
		`{"plan": ["knowledge_rag_agent"]}`, `{"agent": "Google News", "message": "latest news"}`, `{"plan": "none"}`,
		`{"plan": [{"agent": "response_agent"}, {"agent": "launch_rocket"}]}`, `{"plan": [{"agent": "search_agent", "message": `,
		"Google News: Geneva news today", "none", "1. search_agent (Weather App): \"Geneva,CH\"\n2. vision_agent:",
		"Plan:\nStep 1: **Google Search** - capital of Peru", "response_agent: hello"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		steps, err := agents.ParsePlan(answer)
		if err != nil {
			return
		}
		plan, _ := agents.ValidatePlan(steps, "the message", 4)
		if len(plan) > 4 {
			t.Fatalf("%d steps", len(plan))
		}
		for _, st := range plan {
			switch st.Agent {
			case agents.NodeSearch, agents.NodeKnowledge, agents.NodeVision:
			default:
				t.Fatalf("step for %q from %q", st.Agent, answer)
			}
			if st.Message == "" {
				t.Fatalf("step without a message from %q", answer)
			}
		}
	})
}

// FuzzParseAppraisal: an appraisal is a valid emotion with an intensity
// from 0 to 1, or an error.
func FuzzParseAppraisal(f *testing.F) {
	for _, s := range []string{"joy 4", "Surprised 10", "anger 7/10", "neutral", `{"emotion":"joy","intensity":0.4}`,
		`{"Emotion": "Angry", "Intensity": "8"}`, "The message makes Nadine feel happy, about 6 out of 10.", "joy 40", "purple 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		e, x, err := agents.ParseAppraisal(answer)
		if err != nil {
			return
		}
		if !e.Valid() || x < 0 || x > 1 || x != x {
			t.Fatalf("ParseAppraisal(%q) = %q %v", answer, e, x)
		}
	})
}

// FuzzParseExtraction: any memory-update answer gives facts without
// panics; lists hold no empty item.
func FuzzParseExtraction(f *testing.F) {
	for _, s := range []string{`{"user_name":"Alex","current_company":"CERN","current_position":"engineer","location":"Geneva","hobbies":["skiing"],"interests":["physics"]}`,
		"```json\n{\"name\": \"Alex\", \"company\": \"CERN\", \"job\": \"engineer\", \"city\": \"Geneva\", \"hobbies\": \"skiing, chess\"}\n```",
		`{"user_info": {"user_name": "Zoe", "location": "N/A", "hobbies": null, "interests": ["none"]}}`, `user_name = Zoe`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		x, err := agents.ParseExtraction(answer)
		if err != nil {
			return
		}
		for _, l := range [][]string{x.Hobbies, x.Interests} {
			for _, item := range l {
				if item == "" {
					t.Fatalf("empty list item from %q", answer)
				}
			}
		}
	})
}

// FuzzParseEpisode: an episode has an observation or a result, or is an
// error.
func FuzzParseEpisode(f *testing.F) {
	for _, s := range []string{`{"observation":"They talked.","thought":"Nice.","action":"Answered.","result":"Bye."}`,
		`{"Observations": "They talked.", "Thoughts": "Nice.", "Outcome": "Bye."}`, `{"observation": "They talked"`, `{"thought": "hmm"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		ep, err := agents.ParseEpisode(answer)
		if err == nil && ep[0] == "" && ep[3] == "" {
			t.Fatalf("episode without observation and result from %q", answer)
		}
	})
}

// FuzzParseRoute: the router's tool is one of the tools when the answer
// names one.
func FuzzParseRoute(f *testing.F) {
	for _, s := range []string{`{"tool": "Weather App", "query": "London,GB"}`, `{"tool_name": "weather_app", "input": {"city": "London", "country": "GB"}}`,
		"Google Search", "I'd use google"} {
		f.Add(s)
	}
	names := []string{"Google Search", "Google News", "Weather App"}
	f.Fuzz(func(t *testing.T, answer string) {
		_, _, _ = agents.ParseRoute(answer, names)
		_ = agents.AnswerText(answer, "summary", "answer")
	})
}
