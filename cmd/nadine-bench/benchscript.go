package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/internal/loopback"
)

// The bench's scripted conversation: one known user, a greeting, plain
// turns, and every fourth turn a question that needs a web search.
const (
	benchUserID   = "robin-bench"
	benchUserName = "Robin"
)

// Turn types, as reported: a plain turn that found a memory of the person
// is reported apart.
const (
	turnGreeting    = "greeting"
	turnPlain       = "plain"
	turnPlainMemory = "plain, memories"
	turnSearch      = "search"
)

// benchAppraisers are --appraiser's choices: nil answers "joy 5" every turn,
// the others change label on half the turns (llmtest.Appraiser).
var benchAppraisers = map[string]map[string]float64{
	"fixed":      nil,
	"small-talk": llmtest.SmallTalkWeights,
	"friendly":   llmtest.FriendlyWeights,
}

var (
	benchPlain = []string{
		"Tell me about Geneva.",
		"What else is there to see?",
		"And what about the lake?",
		"Is it a good place to live?",
		"What do you like most there?",
		"How long have you lived in Geneva?",
	}
	benchSearch = []string{
		"What is the latest news about the Geneva motor show?",
		"Who won the football match in Geneva last night?",
		"What is new at CERN this week?",
	}
)

// benchTurn returns the i-th input of the conversation and its type.
func benchTurn(i int) (text, kind string) {
	switch {
	case i == 0:
		return "Hello Nadine!", turnGreeting
	case i%4 == 3:
		return benchSearch[(i/4)%len(benchSearch)], turnSearch
	}
	return benchPlain[(i-1)%len(benchPlain)], turnPlain
}

// isSearchInput reports whether a user message is one of the search questions.
func isSearchInput(s string) bool {
	for _, q := range benchSearch {
		if strings.Contains(s, q) {
			return true
		}
	}
	return false
}

// Answers of the scripted models, with the lengths real models give: a
// spoken reply of two sentences, short JSON for the classifiers.
const (
	benchReply       = "Geneva is a lovely city by the lake. It hosts many international organisations, and my lab, MIRALab."
	benchGreeting    = "Hello Robin, it is good to see you again! How are you today?"
	benchSearchReply = "The motor show opens next week with many electric cars. I would love to see the new models."
	benchSummary     = "Robin and Nadine talk about Geneva, the lake and life in the city."
)

// scriptBenchModels answers every role of both engines, each by its own model
// name (benchConfig).
func scriptBenchModels(srv *llmtest.Server, appraiser string) {
	// Only the new input decides: memories and history in a prompt may
	// quote earlier questions.
	search := func(r llmtest.Request) bool { return isSearchInput(latestInput(r)) }
	greeting := func(r llmtest.Request) bool { return strings.Contains(latestInput(r), "Hello Nadine") }
	// ReAct: a search question first calls Google Search, then answers
	// from the observation.
	final := func(text, category string) func(llmtest.Request) string {
		return func(r llmtest.Request) string { return fenced(r, orderedFinal(text, category)) }
	}
	srv.On(llmtest.MatchAll(llmtest.MatchModel("react_agent"), llmtest.MatchLastUser("TOOL RESULT ("))).
		ReplyFunc(final(benchSearchReply, "information request"))
	srv.On(llmtest.MatchAll(llmtest.MatchModel("react_agent"), search)).ReplyFunc(func(r llmtest.Request) string {
		return fenced(r, `{"action": "Google Search", "action_input": "Geneva news today"}`)
	})
	srv.On(llmtest.MatchAll(llmtest.MatchModel("react_agent"), greeting)).
		ReplyFunc(final(benchGreeting, "greeting"))
	srv.On(llmtest.MatchModel("react_agent")).ReplyFunc(final(benchReply, "information request"))
	// The contextualizer rewrites each follow-up into its own standalone
	// question, as a model does (one fixed rewrite for every input made
	// every follow-up's query the same text, which the engines' query
	// cache then answered without an embedding call).
	srv.On(llmtest.MatchModel("contextualizer")).ReplyFunc(func(r llmtest.Request) string {
		return standaloneOf(latestInput(r))
	})

	// Graph.
	srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleIntent), greeting)).Reply("first_greeting")
	srv.On(llmtest.MatchModel(agents.RoleIntent)).Reply("continue_conversation")
	if w := benchAppraisers[appraiser]; w != nil {
		a := &llmtest.Appraiser{Seed: 26, Change: 0.5, Weights: w}
		srv.On(llmtest.MatchModel(agents.RoleAppraisal)).ReplyFunc(func(llmtest.Request) string { return a.Next() })
	} else {
		srv.On(llmtest.MatchModel(agents.RoleAppraisal)).Reply("joy 5")
	}
	// The plan in the format the orchestrator's prompt asks for.
	srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleOrchestrator), search)).Reply("Google News: Geneva news today")
	srv.On(llmtest.MatchModel(agents.RoleOrchestrator)).Reply("none")
	srv.On(llmtest.MatchModel(agents.RoleSearchRouter)).Reply(`{"tool":"Google News","query":"Geneva news today"}`)
	srv.On(llmtest.MatchModel(agents.RoleSearchAnswer)).Reply("The Geneva motor show opens next week, with many electric cars on show.")
	srv.On(llmtest.MatchModel(agents.RoleContextSummary)).Reply(benchSummary)
	srv.On(llmtest.MatchModel(agents.RoleMemoryUpdate)).Reply(`{"user_name":"","current_company":"","current_position":"","location":"","hobbies":[],"interests":[]}`)
	srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleResponse), llmtest.MatchLastUser("SEARCH RESULTS:"))).Reply(benchSearchReply)
	srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleResponse), greeting)).Reply(benchGreeting)
	srv.On(llmtest.MatchModel(agents.RoleResponse)).Reply(benchReply)
	srv.On(llmtest.MatchModel("translator")).ReplyFunc(func(r llmtest.Request) string { return r.LastUser() })
}

// latestInput finds the person's new input in any role's prompt (HUMAN'S
// INPUT, LATEST MESSAGE, MESSAGE, else the last user message).
func latestInput(r llmtest.Request) string {
	u := r.LastUser()
	for _, mark := range []string{"HUMAN'S INPUT\n", "MESSAGE: "} {
		if i := strings.LastIndex(u, mark); i >= 0 {
			return u[i+len(mark):]
		}
	}
	return u
}

// standaloneOf is the contextualizer's rewrite of a follow-up about Geneva,
// where the conversation is ("… to see?" becomes "… to see in Geneva?").
func standaloneOf(input string) string {
	q := strings.TrimRight(strings.TrimSpace(input), "?.! ")
	if strings.Contains(q, "Geneva") {
		return q + "?"
	}
	return q + " in Geneva?"
}

// orderedFinal writes a final answer with its keys in the prompt's and the
// schema's order.
func orderedFinal(text, category string) string {
	q, _ := json.Marshal(text)
	return fmt.Sprintf(`{"action": "Final Answer", "action_input": %s, "emotion": "joy", "emotion_intensity": 5, "category": %q, "causing_person": "human"}`, q, category)
}

// fenced writes the agent's JSON answer as a model does: in the code block
// the text format's prompt asks for, bare under a strict JSON schema (the
// server constrains the answer to the object itself).
func fenced(r llmtest.Request, obj string) string {
	if r.ResponseFormat == "json_schema" {
		return obj
	}
	return "```json\n" + obj + "\n```"
}

// startSerper starts a Serper-compatible search API that answers after
// latency (a real search takes a few hundred milliseconds).
func startSerper(latency time.Duration) *loopback.Server {
	return loopback.Run(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(latency)
		w.Header().Set("Content-Type", "application/json")
		item := map[string]any{"title": "Geneva International Motor Show opens next week",
			"link": "https://example.org/gims", "snippet": "The Geneva motor show returns with dozens of electric cars.",
			"date": "1 day ago", "source": "Example News", "position": 1}
		key := "organic"
		if r.URL.Path == "/news" {
			key = "news"
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"searchParameters": map[string]any{"q": "Geneva news today"}, key: []any{item, item, item}})
	}))
}
