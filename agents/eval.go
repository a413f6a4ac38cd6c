package agents

import (
	"context"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
	"github.com/nadine-robot/nadine/labels"
	"github.com/nadine-robot/nadine/spoken"
)

// The test harnesses' sample sets: one JSON file per agent, and vision's images.
//
//go:embed testdata/samples/*.json testdata/samples/images/*
var samplesFS embed.FS

// The agents Eval measures, each against its model role.
const (
	EvalIntent            = "intent"             // intent_classifier: the exact label
	EvalUserInfo          = "user_info"          // memory_update: the extracted fields
	EvalEpisodicMemory    = "episodic_memory"    // memory_update: valid JSON with the four keys
	EvalOrchestration     = "orchestration"      // orchestrator: the planned agents, in order
	EvalSearchRouter      = "search_router"      // search_router: the chosen tool
	EvalSearchAnswer      = "search_answer"      // search_answer: short, with the expected facts
	EvalVisionRouter      = "vision_router"      // orchestrator: whether the camera is used
	EvalVisionDescription = "vision_description" // vision: the description names what is shown
	EvalResponse          = "response"           // response: short, in the language, with the facts
	EvalContextualizer    = "contextualizer"     // context_summary: one sentence that keeps the topic
)

// EvalAgents returns the agents Eval knows, in order.
func EvalAgents() []string {
	return []string{EvalIntent, EvalUserInfo, EvalEpisodicMemory, EvalOrchestration, EvalSearchRouter,
		EvalSearchAnswer, EvalVisionRouter, EvalVisionDescription, EvalResponse, EvalContextualizer}
}

// evalRoles maps each agent to the model role it measures.
var evalRoles = map[string]string{
	EvalIntent: RoleIntent, EvalUserInfo: RoleMemoryUpdate, EvalEpisodicMemory: RoleMemoryUpdate,
	EvalOrchestration: RoleOrchestrator, EvalSearchRouter: RoleSearchRouter, EvalSearchAnswer: RoleSearchAnswer,
	EvalVisionRouter: RoleOrchestrator, EvalVisionDescription: RoleVision, EvalResponse: RoleResponse,
	EvalContextualizer: RoleContextSummary,
}

// EvalResult is how one agent's model did on its samples.
type EvalResult struct {
	Agent    string        `json:"agent"`
	Role     string        `json:"role"`
	Cases    int           `json:"cases"`
	Passed   int           `json:"passed"`
	Failures []EvalFailure `json:"failures,omitempty"`
	Duration time.Duration `json:"duration_ns"`
}

// PassRate is the share of cases passed, 0 to 1.
func (r EvalResult) PassRate() float64 {
	if r.Cases == 0 {
		return 0
	}
	return float64(r.Passed) / float64(r.Cases)
}

// EvalFailure is one failed case.
type EvalFailure struct {
	Case   string `json:"case"`
	Input  string `json:"input"`
	Got    string `json:"got"`
	Reason string `json:"reason"`
}

// evalSample is one case of a sample file; each agent uses some fields.
type evalSample struct {
	Name    string           `json:"name"`
	Input   string           `json:"input"`
	History []nadine.Message `json:"history,omitempty"`
	Context string           `json:"context,omitempty"`
	// search_answer: the tool and its result.
	Tool    string `json:"tool,omitempty"`
	Results string `json:"results,omitempty"`
	// vision_description: an image under samples/images.
	Image string `json:"image,omitempty"`
	// response: the packet.
	Intent    string  `json:"intent,omitempty"`
	Person    string  `json:"person,omitempty"`
	Language  string  `json:"language,omitempty"`
	Emotion   string  `json:"emotion,omitempty"`
	Intensity float64 `json:"intensity,omitempty"`
	Search    string  `json:"search,omitempty"`
	Knowledge string  `json:"knowledge,omitempty"`
	Vision    string  `json:"vision,omitempty"`
	// What passes.
	WantLabel    string            `json:"want_label,omitempty"`
	WantFields   map[string]string `json:"want_fields,omitempty"`
	WantKeys     []string          `json:"want_keys,omitempty"`
	WantAgents   []string          `json:"want_agents,omitempty"`
	WantTool     string            `json:"want_tool,omitempty"`
	WantAny      []string          `json:"want_any,omitempty"`
	MaxSentences int               `json:"max_sentences,omitempty"`
	// Ideal is a reference answer that passes (documentation, and the
	// scripted model of the tests).
	Ideal string `json:"ideal,omitempty"`
}

func loadSamples(agent string) ([]evalSample, error) {
	data, err := samplesFS.ReadFile("testdata/samples/" + agent + ".json")
	if err != nil {
		return nil, fmt.Errorf("agents: samples of %s: %w", agent, err)
	}
	var out []evalSample
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("agents: samples of %s: %w", agent, err)
	}
	return out, nil
}

// EvalSelect returns the agents a name selects: all, one agent, or the
// agents of one model role; anything else is EINVALID.
func EvalSelect(name string) ([]string, error) {
	all := EvalAgents()
	if name == "" || name == "all" {
		return all, nil
	}
	if _, ok := evalRoles[name]; ok {
		return []string{name}, nil
	}
	var byRole, roles []string
	for _, a := range all {
		if evalRoles[a] == name {
			byRole = append(byRole, a)
		}
		if !slices.Contains(roles, evalRoles[a]) {
			roles = append(roles, evalRoles[a])
		}
	}
	if len(byRole) == 0 {
		return nil, nadine.Errorf(nadine.EINVALID, "agents: no samples for %q (agents: %s; roles: %s)",
			name, strings.Join(all, ", "), strings.Join(roles, ", "))
	}
	return byRole, nil
}

// Eval runs the selected agents' samples through the engine's own prompts and
// parsers, so a lab can compare models; searchTools are shown, never called.
func Eval(ctx context.Context, models func(role string) nadine.ChatModel, name string, searchTools ...nadine.Tool) ([]EvalResult, error) {
	agents, err := EvalSelect(name)
	if err != nil {
		return nil, err
	}
	if models == nil {
		models = func(string) nadine.ChatModel { return nil }
	}
	p, err := loadPrompts()
	if err != nil {
		return nil, err
	}
	if len(searchTools) == 0 {
		for _, n := range searchToolNames {
			searchTools = append(searchTools, namedTool(n))
		}
	}
	ev := &evaluator{p: p, r: &responder{prompts: p, now: time.Now}, searchTools: searchTools}
	var out []EvalResult
	for _, a := range agents {
		samples, err := loadSamples(a)
		if err != nil {
			return out, err
		}
		role := evalRoles[a]
		m := models(role)
		start := time.Now()
		res := EvalResult{Agent: a, Role: role, Cases: len(samples)}
		for _, smp := range samples {
			if err := ctx.Err(); err != nil {
				return out, fmt.Errorf("agents: eval %s: %w", a, err)
			}
			var got, reason string
			if m == nil {
				reason = "no model for role " + role
			} else {
				got, reason = ev.run(ctx, a, m, smp)
			}
			if reason == "" {
				res.Passed++
				continue
			}
			in := smp.Input
			if in == "" && len(smp.History) > 0 {
				in = smp.History[len(smp.History)-1].Content
			}
			res.Failures = append(res.Failures, EvalFailure{Case: smp.Name, Input: nadine.Shorten(in, 120), Got: nadine.Shorten(got, 300), Reason: reason})
		}
		res.Duration = time.Since(start)
		out = append(out, res)
	}
	return out, nil
}

type evaluator struct {
	p           prompts
	r           *responder    // builds the response's request
	searchTools []nadine.Tool // described to the router, never called
}

// namedTool is a search tool known by its name only, for the router's
// cases when Eval is given no tools; calling it is an error.
type namedTool string

func (t namedTool) Name() string        { return string(t) }
func (t namedTool) Description() string { return "" }
func (t namedTool) Call(context.Context, nadine.ToolInput) (string, error) {
	return "", nadine.Errorf(nadine.EINVALID, "agents: eval tool %s is never called", string(t))
}

// run runs one case and returns the model's answer and why it fails ("" if
// it passes).
func (ev *evaluator) run(ctx context.Context, agent string, m nadine.ChatModel, smp evalSample) (got, reason string) {
	switch agent {
	case EvalIntent:
		label, raw, err := classifyIntent(ctx, m, ev.p, smp.Input)
		if err != nil {
			return raw, err.Error()
		}
		if string(label) != smp.WantLabel {
			return raw, fmt.Sprintf("label %q, want %q", label, smp.WantLabel)
		}
	case EvalUserInfo:
		x, err := extractUserInfo(ctx, m, ev.p, smp.History, smp.Input)
		if err != nil {
			return "", err.Error()
		}
		b, _ := json.Marshal(x)
		return string(b), checkFields(x, smp.WantFields)
	case EvalEpisodicMemory:
		resp, err := m.Chat(ctx, nadine.ChatRequest{Role: RoleMemoryUpdate, Format: episodeFormat, Messages: []nadine.ChatMessage{
			{Role: nadine.RoleSystem, Content: ev.p.render("episode", nil)},
			{Role: nadine.RoleUser, Content: conversationData(smp.History)},
		}})
		if err != nil {
			return "", err.Error()
		}
		raw, ok := labels.ExtractJSON(resp.Content)
		v, isObj := labels.Fields(raw)
		if !ok || !isObj {
			return resp.Content, "not valid JSON"
		}
		for _, k := range smp.WantKeys {
			if s, ok := labels.Get(v, k); !ok || strings.TrimSpace(labels.Text(s)) == "" {
				return resp.Content, "missing or empty key " + k
			}
		}
	case EvalOrchestration, EvalVisionRouter:
		steps, err := planSteps(ctx, m, ev.p, routerPrompt{}, orDefault(smp.Context, NoContext), smp.Input)
		if err != nil {
			return "", err.Error()
		}
		steps, _ = validatePlan(steps, smp.Input, DefaultMaxSteps)
		var agents []string
		for _, st := range steps {
			agents = append(agents, st.Agent)
		}
		got = strings.Join(agents, ", ")
		if agent == EvalVisionRouter {
			if slices.Contains(agents, NodeVision) != slices.Contains(smp.WantAgents, NodeVision) {
				return got, fmt.Sprintf("vision used: %v, want %v", slices.Contains(agents, NodeVision), slices.Contains(smp.WantAgents, NodeVision))
			}
			return got, ""
		}
		if !slices.Equal(agents, smp.WantAgents) {
			return got, fmt.Sprintf("agents [%s], want [%s]", got, strings.Join(smp.WantAgents, ", "))
		}
	case EvalSearchRouter:
		tool, query, err := routeSearch(ctx, m, ev.p, ev.searchTools, smp.Input)
		got = tool + ": " + query
		if err != nil {
			return got, err.Error()
		}
		if !strings.EqualFold(strings.TrimSpace(tool), smp.WantTool) {
			return got, fmt.Sprintf("tool %q, want %q", tool, smp.WantTool)
		}
		if strings.TrimSpace(query) == "" {
			return got, "empty query"
		}
	case EvalSearchAnswer:
		ans, err := answerSearch(ctx, m, ev.p, smp.Input, smp.Tool, smp.Results)
		if err != nil {
			return ans, err.Error()
		}
		return ans, checkText(ans, smp, "")
	case EvalVisionDescription:
		url, err := sampleImage(smp.Image)
		if err != nil {
			return "", err.Error()
		}
		ans, err := describeImage(ctx, m, ev.p, smp.Input, url)
		if err != nil {
			return ans, err.Error()
		}
		return ans, checkText(ans, smp, "")
	case EvalResponse:
		s := ev.responseState(smp)
		resp, err := m.Chat(ctx, nadine.ChatRequest{Role: RoleResponse, Messages: ev.r.responseMessages(ctx, s)})
		if err != nil {
			return "", err.Error()
		}
		return resp.Content, checkText(resp.Content, smp, s.Language)
	case EvalContextualizer:
		sum, err := summarize(ctx, m, ev.p, smp.History)
		if err != nil {
			return sum, err.Error()
		}
		return sum, checkText(sum, smp, "")
	}
	return got, ""
}

// responseState builds the state a response sample describes.
func (ev *evaluator) responseState(smp evalSample) State {
	now := time.Now()
	lang, err := nadine.ParseLanguage(smp.Language)
	if err != nil {
		lang = nadine.DefaultLanguage
	}
	a := affect.New(affect.NadinePersonality(), now)
	if smp.Emotion != "" {
		a = affect.Appraise(a, nadine.Emotion(smp.Emotion), smp.Intensity, now)
	}
	msgs := append(slices.Clone(smp.History), nadine.Message{Role: nadine.RoleUser, Content: smp.Input})
	s := State{Messages: msgs, Intent: Intent(smp.Intent), Language: lang, Affect: a,
		SearchResults: smp.Search, KnowledgeRetrieval: smp.Knowledge, VisionResults: smp.Vision}
	if smp.Person != "" {
		s.UserInfo = UserInfo{ID: "eval-user", Name: smp.Person}
	}
	return s
}

// sampleImage reads a sample image as a data URL.
func sampleImage(name string) (string, error) {
	b, err := samplesFS.ReadFile(path.Join("testdata/samples/images", name))
	if err != nil {
		return "", fmt.Errorf("agents: sample image: %w", err)
	}
	typ := mime.TypeByExtension(path.Ext(name))
	if typ == "" {
		typ = "image/png"
	}
	return "data:" + typ + ";base64," + base64.StdEncoding.EncodeToString(b), nil
}

// checkFields: "" wants an empty field; a text field or a list element must
// contain the wanted text (case-insensitive).
func checkFields(x Extraction, want map[string]string) string {
	got := map[string][]string{
		"user_name": {x.UserName}, "current_company": {x.CurrentCompany}, "current_position": {x.CurrentPosition},
		"location": {x.Location}, "hobbies": nonEmpty(x.Hobbies), "interests": nonEmpty(x.Interests),
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		w := strings.ToLower(strings.TrimSpace(want[k]))
		vals := nonEmpty(got[k])
		if w == "" {
			if len(vals) > 0 {
				return fmt.Sprintf("%s is %q, want empty", k, strings.Join(vals, ", "))
			}
			continue
		}
		if !slices.ContainsFunc(vals, func(v string) bool { return strings.Contains(strings.ToLower(v), w) }) {
			return fmt.Sprintf("%s is %q, want %q", k, strings.Join(vals, ", "), want[k])
		}
	}
	return ""
}

var urlPattern = regexp.MustCompile(`(?i)(https?://|www\.)`)

// checkText checks a text answer: not empty, at most MaxSentences
// sentences, no URL, one of WantAny, and in Chinese when lang is.
func checkText(text string, smp evalSample, lang nadine.Language) string {
	t := strings.TrimSpace(text)
	switch {
	case t == "":
		return "empty answer"
	case smp.MaxSentences > 0 && len(spoken.SplitSentences(t)) > smp.MaxSentences:
		return fmt.Sprintf("%d sentences, want at most %d", len(spoken.SplitSentences(t)), smp.MaxSentences)
	case urlPattern.MatchString(t):
		return "contains a URL"
	case lang == nadine.Chinese && !hasCJK(t):
		return "not in Chinese"
	case lang != "" && lang != nadine.Chinese && strings.IndexFunc(t, isHan) >= 0:
		return "in Chinese, want " + lang.Name()
	}
	if len(smp.WantAny) > 0 && !slices.ContainsFunc(smp.WantAny, func(w string) bool {
		return strings.Contains(strings.ToLower(t), strings.ToLower(w))
	}) {
		return "mentions none of " + strings.Join(smp.WantAny, ", ")
	}
	return ""
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
