package agents

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/fence"
	"github.com/nadine-robot/nadine/labels"
)

// maxSearchResult bounds the search results the response agent reads
// when they are not summarized.
const maxSearchResult = 2000

// searchToolNames are the tools the search agent may use and its plans
// name, in order of preference when the router cannot choose.
var searchToolNames = []string{"Google Search", "Google News", "Weather App"}

// SearchToolNames returns the names of the tools the search agent uses,
// in order of preference; the wiring gives it tools of these names.
func SearchToolNames() []string { return slices.Clone(searchToolNames) }

// searchAgent is the search_agent node: the router picks a tool unless the
// plan named it, and the answer model or the response agent reads the result.
type searchAgent struct {
	tools          []nadine.Tool    // the search tools configured, in searchToolNames order
	router, answer nadine.ChatModel // roles search_router and search_answer; nil falls back
	prompts        prompts
	summary        bool // the answer model sums the results up (Options.SearchSummary)
	// planTools are the tools a plan may name, sparing the router's call:
	// none with fewer than two (nothing to choose) or in the sequential
	// wiring, where the router always chooses.
	planTools []nadine.Tool
}

// newSearchAgent returns the search agent of the engine's tools and
// models.
func newSearchAgent(e *Engine) *searchAgent {
	a := &searchAgent{router: e.model(RoleSearchRouter), answer: e.model(RoleSearchAnswer), prompts: e.prompts,
		summary: e.opts.SearchSummary}
	for _, n := range searchToolNames {
		if t, ok := nadine.LookupTool(e.tools, n); ok {
			a.tools = append(a.tools, t)
		}
	}
	if len(a.tools) > 1 {
		a.planTools = a.tools
	}
	return a
}

// run is the node.
func (a *searchAgent) run(ctx context.Context, s State) (State, error) {
	step, s := popStep(s, NodeSearch)
	s.SearchResults = appendResult(s.SearchResults, a.search(ctx, s, step))
	return s, nil
}

// toolsPrompt describes the plan's tools to the orchestrator, so its plan
// can name one and spare the router's call.
func (a *searchAgent) toolsPrompt() routerPrompt {
	var p routerPrompt
	if len(a.planTools) == 0 {
		return p
	}
	var names []string
	for _, t := range a.planTools {
		p.Tools = append(p.Tools, toolInfo{t.Name(), t.Description()})
		names = append(names, t.Name())
	}
	p.Names = strings.Join(names, ", ")
	return p
}

func (a *searchAgent) search(ctx context.Context, s State, step PlanStep) string {
	tr := nadine.TraceFrom(ctx)
	query := step.Message
	avail := a.tools
	if len(avail) == 0 {
		tr.Notef("search_agent: no search tool configured")
		return SearchUnavailable
	}
	// The router, the tool and the answer model take a while: say so.
	s.live.askFiller()
	tool, input := avail[0], query
	if t, ok := nadine.LookupTool(a.planTools, strings.TrimSpace(step.Tool)); ok {
		// The plan named the tool: no router call.
		tool = t
		tr.Notef("search_router: the plan chose %s", t.Name())
	} else if len(avail) > 1 {
		name, q, err := routeSearch(ctx, a.router, a.prompts, avail, query)
		if err != nil {
			tr.Fail("search_router", err)
		} else if t, ok := nadine.LookupTool(avail, name); ok {
			tool = t
			if strings.TrimSpace(q) != "" {
				input = q
			}
		} else {
			tr.Notef("search_router: unknown tool %s; using %s", quote(name), tool.Name())
		}
	}
	out, err := tool.Call(ctx, s.live.toolInput(ctx, input, s.Language, s.UserInfo.ID))
	if err != nil {
		tr.Fail("search_agent", err)
		return fmt.Sprintf("The search for %q failed; Nadine could not find the answer.", nadine.Shorten(query, 80))
	}
	if !a.summary {
		// The response agent reads the results itself: one model call
		// less in sequence than the search_answer model's summary.
		return fmt.Sprintf("%s results for %q:\n%s", tool.Name(), nadine.Shorten(query, 120), nadine.Shorten(out, maxSearchResult))
	}
	ans, err := answerSearch(ctx, a.answer, a.prompts, query, tool.Name(), out)
	if err != nil {
		tr.Fail("search_answer", err)
		return nadine.Shorten(out, 600)
	}
	return ans
}

// toolInfo is a tool as the router's prompt shows it.
type toolInfo struct{ Name, Description string }

type routerPrompt struct {
	Tools []toolInfo
	Names string
}

// routeSearch asks the search router for the tool and its input.
func routeSearch(ctx context.Context, m nadine.ChatModel, p prompts, avail []nadine.Tool, query string) (string, string, error) {
	var data routerPrompt
	var names []string
	for _, t := range avail {
		data.Tools = append(data.Tools, toolInfo{t.Name(), t.Description()})
		names = append(names, t.Name())
	}
	data.Names = strings.Join(names, ", ")
	content, err := ask(ctx, m, nadine.ChatRequest{Role: RoleSearchRouter, Format: routerFormat(names),
		Messages: []nadine.ChatMessage{
			{Role: nadine.RoleSystem, Content: p.render("search_router", data)},
			{Role: nadine.RoleUser, Content: query},
		}})
	if err != nil {
		return "", "", err
	}
	tool, q, err := parseRoute(content, names)
	if err == nil {
		if raw, ok := labels.ExtractJSON(content); !ok || !strings.Contains(string(raw), `"`+tool+`"`) {
			nadine.TraceFrom(ctx).Notef("search_router: the answer was read as the tool %s", tool)
		}
	}
	return tool, q, err
}

// searchAnswerInput fills the search answer's user message; Results is a
// data section (the tool's own fence folded into it).
type searchAnswerInput struct{ Question, Tool, Results string }

// answerSearch asks the answer model to sum the tool's result up.
func answerSearch(ctx context.Context, m nadine.ChatModel, p prompts, question, tool, results string) (string, error) {
	content, err := ask(ctx, m, nadine.ChatRequest{Role: RoleSearchAnswer, Messages: []nadine.ChatMessage{
		{Role: nadine.RoleSystem, Content: p.render("search_answer", nil)},
		{Role: nadine.RoleUser, Content: p.render("search_answer_input", searchAnswerInput{question, tool, fence.Text(fence.Search, results)})},
	}})
	if err != nil {
		return "", err
	}
	ans := answerText(content, "answer", "summary", "text", "response", "result")
	noteText(ctx, RoleSearchAnswer, content, ans)
	if ans == "" {
		return "", nadine.Errorf(nadine.EBADOUTPUT, "agents: empty search answer")
	}
	return ans, nil
}
