package agents

import (
	"context"
	"fmt"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/fence"
	"github.com/nadine-robot/nadine/labels"
)

// Fallback results of the tool agents, for the response agent to word.
const (
	SearchUnavailable    = "Search is unavailable right now: Nadine cannot look anything up on the web."
	VisionUnavailable    = "Nadine's camera is switched off right now, so she cannot see anything."
	KnowledgeUnavailable = "Nadine's knowledge base is not available right now."
	KnowledgeNotFound    = "Nadine's knowledge base has nothing about this."
)

// maxSearchResult bounds the search results the response agent reads
// when they are not summarized.
const maxSearchResult = 2000

// searchToolNames are the tools the search agent may use, in order of
// preference when the router cannot choose.
var searchToolNames = []string{nadine.ToolSearch, nadine.ToolNews, nadine.ToolWeather}

// popStep takes the plan's first step for agent (seed 001's tool-agent
// contract: the query is plan_steps[0].message, the step is popped).
func popStep(s State, agent string) (PlanStep, State) {
	step := PlanStep{Agent: agent, Message: s.latest()}
	if len(s.PlanSteps) > 0 {
		step = s.PlanSteps[0]
		s.PlanSteps = append([]PlanStep(nil), s.PlanSteps[1:]...)
	}
	if strings.TrimSpace(step.Message) == "" {
		step.Message = s.latest()
	}
	s.Dispatched = append(append([]string(nil), s.Dispatched...), agent)
	return step, s
}

// appendResult adds a result to a field that may hold an earlier one (two
// steps of the same agent).
func appendResult(field, result string) string {
	if field == "" {
		return result
	}
	return field + "\n" + result
}

// search is the search_agent node: the router picks a tool and its input,
// the tool runs, and the answer model sums the result up.
func (e *Engine) search(ctx context.Context, s State) (State, error) {
	step, s := popStep(s, NodeSearch)
	s.SearchResults = appendResult(s.SearchResults, e.searchAnswer(ctx, s, step))
	return s, nil
}

// searchToolsPrompt describes the search tools to the orchestrator, so its
// plan can name one and spare the router's call (none with fewer than two
// tools: there is nothing to choose; none with seed 001's wiring, where the
// router always chooses).
func (e *Engine) searchToolsPrompt() routerPrompt {
	var p routerPrompt
	avail := e.searchTools()
	if len(avail) < 2 || e.opts.SeedWiring {
		return p
	}
	var names []string
	for _, t := range avail {
		p.Tools = append(p.Tools, toolInfo{t.Name(), t.Description()})
		names = append(names, t.Name())
	}
	p.Names = strings.Join(names, ", ")
	return p
}

// searchTools returns the configured search tools.
func (e *Engine) searchTools() []nadine.Tool {
	var out []nadine.Tool
	for _, n := range searchToolNames {
		if t, ok := nadine.LookupTool(e.tools, n); ok {
			out = append(out, t)
		}
	}
	return out
}

func (e *Engine) searchAnswer(ctx context.Context, s State, step PlanStep) string {
	tr := nadine.TraceFrom(ctx)
	query := step.Message
	avail := e.searchTools()
	if len(avail) == 0 {
		tr.Notef("search_agent: no search tool configured")
		return SearchUnavailable
	}
	// The router, the tool and the answer model take a while: say so.
	e.filler(ctx, s.Language)
	tool, input := avail[0], query
	if t, ok := nadine.LookupTool(avail, strings.TrimSpace(step.Tool)); ok && len(avail) > 1 && !e.opts.SeedWiring {
		// The plan named the tool: no router call.
		tool = t
		tr.Notef("search_router: the plan chose %s", t.Name())
	} else if len(avail) > 1 {
		name, q, err := routeSearch(ctx, e.model(RoleSearchRouter), e.prompts, avail, query)
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
	out, err := tool.Call(ctx, nadine.ToolInput{Text: input, Language: s.Language, UserID: s.UserInfo.ID,
		Emit: scopeFrom(ctx).send})
	if err != nil {
		tr.Fail("search_agent", err)
		return fmt.Sprintf("The search for %q failed; Nadine could not find the answer.", nadine.Shorten(query, 80))
	}
	if !e.opts.SearchSummary && !e.opts.SeedWiring {
		// The response agent reads the results itself: one model call
		// less in sequence than seed 001's search_answer summary.
		return fmt.Sprintf("%s results for %q:\n%s", tool.Name(), nadine.Shorten(query, 120), nadine.Shorten(out, maxSearchResult))
	}
	ans, err := answerSearch(ctx, e.model(RoleSearchAnswer), e.prompts, query, tool.Name(), out)
	if err != nil {
		tr.Fail("search_answer", err)
		return nadine.Shorten(out, 600)
	}
	return ans
}

// filler says the filler line of Options.Filler, at most once per turn (a
// search tool wrapped with the same Filler then says none). It is not
// part of the reply and does not count as Nadine having spoken.
func (e *Engine) filler(ctx context.Context, lang nadine.Language) {
	if e.opts.Filler != nil {
		e.opts.Filler.Emit(ctx, lang, scopeFrom(ctx).send)
	}
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

// vision is the vision_agent node: a capture from the camera, described by
// the vision model for the planned question.
func (e *Engine) vision(ctx context.Context, s State) (State, error) {
	step, s := popStep(s, NodeVision)
	s.VisionResults = appendResult(s.VisionResults, e.look(ctx, s.Language, step.Message))
	return s, nil
}

func (e *Engine) look(ctx context.Context, lang nadine.Language, question string) string {
	tr := nadine.TraceFrom(ctx)
	if !e.opts.VisionAgent || e.opts.Camera == nil {
		tr.Notef("vision_agent: disabled")
		return VisionUnavailable
	}
	// The capture and the vision model take a while: say so.
	e.filler(ctx, lang)
	img, err := e.opts.Camera.Capture(ctx)
	if err != nil {
		tr.Fail("camera", err)
		return "Nadine's camera could not take a picture just now."
	}
	ans, err := describeImage(ctx, e.model(RoleVision), e.prompts, question, img.DataURL())
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

// knowledgeRAG is the knowledge_rag_agent node: the most relevant chunk of
// the knowledge base; its related visual is noted in the trace for the
// monitor.
func (e *Engine) knowledgeRAG(ctx context.Context, s State) (State, error) {
	step, s := popStep(s, NodeKnowledge)
	s.KnowledgeRetrieval = appendResult(s.KnowledgeRetrieval, e.lookUp(ctx, step.Message))
	return s, nil
}

func (e *Engine) lookUp(ctx context.Context, query string) string {
	tr := nadine.TraceFrom(ctx)
	if e.opts.Store == nil || e.opts.Embedder == nil {
		tr.Notef("knowledge_rag_agent: no store or embedder")
		return KnowledgeUnavailable
	}
	res, err := nadine.RetrieveKnowledge(ctx, e.opts.Store, e.opts.Embedder, query, 1)
	if err != nil {
		return KnowledgeUnavailable
	}
	if len(res) == 0 {
		return KnowledgeNotFound
	}
	c := res[0]
	if v := c.Metadata[nadine.KnowledgeMetaVisual]; v != "" {
		tr.Notef("related visual: %s", v)
	}
	text := nadine.Shorten(c.Text, 1500)
	if c.Title != "" {
		text = c.Title + ": " + text
	}
	return text
}
