package agents

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/labels"
	"github.com/nadine-robot/nadine/spoken"
)

// How the graph reads its models' answers: names match by labels.Key
// (case, spaces, underscores and hyphens aside) or by the synonyms below;
// JSON is found in fences, prose and reasoning blocks; a field another
// model would spell differently is found by its other names; a secondary
// field that is missing gets a default. README.md ("How model answers are
// read") lists the tables.

// intents are the intent labels and their synonyms.
var intents = labels.NewTable(
	[]string{string(IntentFirstGreeting), string(IntentUpdateUserInfo), string(IntentEndConversation),
		string(IntentLanguageChange), string(IntentForgetMe), string(IntentContinue)},
	map[string][]string{
		string(IntentFirstGreeting): {"greeting", "greet", "greets", "greetings", "hello", "first greeting", "salutation",
			"start conversation", "start_conversation", "opening"},
		string(IntentUpdateUserInfo): {"update user info", "user info", "update_info", "user_info_update", "introduction",
			"self introduction", "introduce", "personal info", "personal information", "user information", "share info",
			"profile update", "update profile", "update_user_information"},
		string(IntentEndConversation): {"farewell", "goodbye", "bye", "end", "end conversation", "leave", "leaving",
			"conversation end", "end of conversation", "exit", "closing"},
		string(IntentLanguageChange): {"change language", "switch language", "language switch", "language",
			"language change request", "change_language", "switch_language"},
		string(IntentForgetMe): {"forget me", "forget user", "erase me", "delete me", "delete my data", "erase user",
			"delete user", "right to be forgotten", "data deletion", "forget_user", "delete_user_data"},
		string(IntentContinue): {"continue", "continue conversation", "conversation", "chat", "small talk", "question",
			"other", "general", "information request", "request", "none", "continue_chat"},
	})

// intentKeys are the fields a JSON answer may hold the intent in.
var intentKeys = []string{"intent", "label", "classification", "category", "class", "intention"}

// parseIntent reads an intent from a classifier's answer in any of the
// shapes models write it; "" when none is found.
func parseIntent(text string) Intent {
	t := spoken.StripThinking(text)
	if raw, ok := labels.ExtractJSON(t); ok {
		if f, ok := labels.Fields(raw); ok {
			if v, ok := labels.Get(f, intentKeys...); ok {
				t = labels.Text(v)
			}
		} else if s := labels.Text(raw); s != "" {
			t = s
		}
	}
	t = strings.TrimSpace(t)
	for _, prefix := range []string{"intent:", "label:"} {
		if strings.HasPrefix(strings.ToLower(t), prefix) {
			t = t[len(prefix):]
		}
	}
	if l, ok := intents.Conclusion(t); ok {
		return Intent(l)
	}
	return ""
}

// appraisalEmotionKeys and appraisalIntensityKeys are the appraisal's JSON
// fields.
var (
	appraisalEmotionKeys   = []string{"emotion", "label", "feeling", "emotion_label", "appraisal", "nadine_emotion"}
	appraisalIntensityKeys = []string{"intensity", "emotion_intensity", "level", "strength", "score", "value"}
)

// parseAppraisal reads "joy 4", JSON or a sentence; only an answer naming
// no emotion is EBADOUTPUT.
func parseAppraisal(text string) (nadine.Emotion, float64, error) {
	t := strings.TrimSpace(spoken.StripThinking(text))
	said, x := "", 0.5
	if strings.Contains(t, "{") {
		if raw, ok := labels.ExtractJSON(t); ok {
			if f, ok := labels.Fields(raw); ok {
				if v, ok := labels.Get(f, appraisalEmotionKeys...); ok {
					said = labels.Text(v)
				}
				if v, ok := labels.Get(f, appraisalIntensityKeys...); ok {
					if n, ok := labels.Number(v); ok {
						x = n
						if n > 1 {
							x = n / 10
						}
					}
				}
			}
		}
	}
	if said == "" {
		words := strings.Fields(strings.Trim(t, ".`*\"'"))
		if len(words) >= 1 && len(words) <= 3 {
			if _, ok := labels.Emotion(words[0]); ok {
				said = words[0]
				if n, ok := labels.ParseNumber(strings.Join(words[1:], " ")); ok {
					x = tenths(n)
				}
			}
		}
	}
	if said == "" {
		if e, ok := labels.FindEmotion(t); ok {
			said = string(e)
			// In a sentence only a written number is an intensity
			// ("some surprise" is not 4 out of 10).
			if n, ok := labels.ParseNumber(t); ok && strings.ContainsAny(t, "0123456789") {
				x = tenths(n)
			}
		}
	}
	e, ok := labels.Emotion(said)
	if !ok {
		return nadine.Neutral, 0, nadine.Errorf(nadine.EBADOUTPUT, "agents: appraisal: %q names no emotion", nadine.Shorten(t, 40))
	}
	return e, min(1, max(0, x)), nil
}

// tenths brings an intensity on the prompt's 0–10 scale to 0–1; a
// fraction strictly between 0 and 1 is taken as already on 0–1.
func tenths(n float64) float64 {
	if n > 0 && n < 1 {
		return n
	}
	return n / 10
}

// agents are the tool agents a plan step may name, with their synonyms.
var agentNames = labels.NewTable(
	[]string{NodeSearch, NodeKnowledge, NodeVision, NodeResponse},
	map[string][]string{
		NodeSearch: {"search", "web search", "web_search", "search agent", "google", "google search", "internet",
			"web", "news", "news agent", "search engine", "search tool", "online search", "weather"},
		NodeKnowledge: {"knowledge", "knowledge agent", "knowledge_agent", "rag", "rag agent", "knowledge base",
			"knowledge_base", "knowledge base agent", "kb", "wikipedia", "wikipedia_agent", "wiki", "knowledge rag",
			"knowledge_rag", "knowledge retrieval", "rag_agent"},
		NodeVision: {"vision", "camera", "camera agent", "look", "vision agent", "see", "image", "visual", "eyes"},
		NodeResponse: {"response", "respond", "response agent", "answer", "reply", "final answer", "nadine",
			"response_generator"},
	})

// plan step fields.
var (
	planListKeys    = []string{"plan", "steps", "plan_steps", "agents", "actions", "tasks", "calls"}
	stepAgentKeys   = []string{"agent", "agent_name", "name", "node", "tool_agent", "type", "step", "action"}
	stepMessageKeys = []string{"message", "query", "question", "request", "input", "task", "prompt", "text", "instruction", "content"}
	stepToolKeys    = []string{"tool", "tool_name", "search_tool"}
)

// parsePlan reads the orchestrator's plan as lines (parsePlanLines) or as
// JSON in the layouts models write; only an answer that is neither is an error.
func parsePlan(text string) ([]PlanStep, error) {
	raw, ok := labels.ExtractCompleteJSON(text)
	if j := bytes.TrimSpace(raw); !ok || (!bytes.HasPrefix(j, []byte("{")) && !bytes.HasPrefix(j, []byte("["))) {
		// No JSON object or list in the answer (a quoted request is not
		// one): the lines the prompt asks for.
		if steps, ok := parsePlanLines(labels.AnswerText(text)); ok {
			return steps, nil
		}
	}
	if !ok {
		t := strings.TrimSpace(spoken.StripThinking(text))
		if l, ok := agentNames.Lookup(t); ok && l != NodeResponse {
			return []PlanStep{{Agent: l}}, nil
		}
		return nil, nadine.Errorf(nadine.EBADOUTPUT, "agents: answer is not a plan: %q", nadine.Shorten(text, 120))
	}
	if f, ok := labels.Fields(raw); ok {
		if v, ok := labels.Get(f, planListKeys...); ok {
			raw = v
		} else if _, ok := labels.Get(f, stepAgentKeys...); ok {
			return planItems([]json.RawMessage{raw}), nil
		} else if len(f) == 0 {
			return nil, nil
		} else {
			return nil, nadine.Errorf(nadine.EBADOUTPUT, "agents: the plan has no \"plan\" list: %q", nadine.Shorten(text, 120))
		}
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		// "plan": "search_agent" or "plan": "none"
		if s := labels.Text(raw); s != "" {
			return planItems([]json.RawMessage{raw}), nil
		}
		return nil, nil
	}
	return planItems(list), nil
}

// noPlanAnswers are the keys (labels.Key) of answers that plan nothing.
var noPlanAnswers = map[string]bool{"none": true, "noplan": true, "emptyplan": true, "noagent": true, "noagents": true,
	"noagentneeded": true, "noagentsneeded": true, "notool": true, "notools": true, "notoolneeded": true,
	"notoolsneeded": true, "noneneeded": true, "nothing": true, "nostep": true, "nosteps": true, "planempty": true,
	"plannone": true, "na": true, "null": true, "nil": true}

// planSeparators stand for the colon between a step's agent and its
// request, in a line that has none ("Google News - Geneva news today").
var planSeparators = []string{" | ", " -> ", " → ", " => ", " – ", " — ", " - "}

// parsePlanLines reads "<tool or agent>: <request>" lines around bullets,
// numbering and prose; ok is false with neither a step nor a "none".
func parsePlanLines(text string) (steps []PlanStep, ok bool) {
	if noPlanAnswers[labels.Key(text)] {
		return nil, true
	}
	for line := range strings.SplitSeq(text, "\n") {
		if st, found := planLine(line); found {
			steps = append(steps, st)
		}
	}
	return steps, len(steps) > 0
}

// planLine reads one line of a plan (see parsePlanLines).
func planLine(line string) (PlanStep, bool) {
	line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-*•·>#"))
	if i := strings.IndexFunc(line, func(r rune) bool { return r < '0' || r > '9' }); i > 0 && i < len(line) &&
		(line[i] == '.' || line[i] == ')') {
		line = strings.TrimSpace(line[i+1:]) // "1. ", "2) "
	}
	if !strings.Contains(line, ":") {
		for _, sep := range planSeparators {
			if head, rest, found := strings.Cut(line, sep); found {
				line = head + ":" + rest
				break
			}
		}
	}
	parts := strings.Split(line, ":")
	for i, head := range parts {
		agent, tool, found := planHead(head)
		if !found {
			continue
		}
		rest := parts[i+1:]
		if agent == NodeSearch && tool == "" && len(rest) > 1 {
			if _, t, ok := planHead(rest[0]); ok && t != "" { // "search_agent: Google News: …"
				tool, rest = t, rest[1:]
			}
		}
		// An empty request ("vision_agent") is the message itself (see
		// validatePlan).
		msg := strings.TrimSpace(strings.Trim(strings.TrimSpace(strings.Join(rest, ":")), "\"'`“”‘’«»"))
		return PlanStep{Agent: agent, Message: msg, Tool: tool}, true
	}
	return PlanStep{}, false
}

// planHead reads a plan line's agent part: a name, synonym or search tool,
// or both ("search_agent (Google News)"), bold or quoted.
func planHead(head string) (agent, tool string, ok bool) {
	head = strings.TrimSpace(strings.Trim(strings.TrimSpace(head), "*_`\"'“”"))
	if i := strings.IndexAny(head, "(["); i > 0 {
		outer, inner := head[:i], strings.Trim(head[i+1:], ")] ")
		a1, t1, ok1 := planHead(outer)
		a2, t2, ok2 := planHead(inner)
		switch {
		case ok1 && ok2 && a1 == NodeSearch && a2 == NodeSearch:
			return NodeSearch, cmp.Or(t1, t2), true
		case ok1:
			return a1, t1, true
		case ok2:
			return a2, t2, true
		}
		return "", "", false
	}
	if agent, tool, ok = planAgent(head, searchToolNames); ok && agent != NodeResponse {
		return agent, tool, true
	}
	return "", "", false
}

// planItems reads the steps of a plan list, each an object or a name.
func planItems(list []json.RawMessage) []PlanStep {
	var out []PlanStep
	for _, item := range list {
		if f, ok := labels.Fields(item); ok {
			var st PlanStep
			if v, ok := labels.Get(f, stepAgentKeys...); ok {
				st.Agent = labels.Text(v)
			}
			if v, ok := labels.Get(f, stepMessageKeys...); ok {
				st.Message = labels.Text(v, stepMessageKeys...)
			}
			if v, ok := labels.Get(f, stepToolKeys...); ok {
				st.Tool = labels.Text(v)
			}
			out = append(out, st)
			continue
		}
		s := strings.TrimSpace(labels.Text(item))
		if nothingValues[labels.Key(s)] || noPlanAnswers[labels.Key(s)] {
			continue
		}
		if st, ok := planLine(s); ok && strings.ContainsAny(s, ":|-–—→>") {
			out = append(out, st) // a step written as the prompt's line
			continue
		}
		out = append(out, PlanStep{Agent: s})
	}
	return out
}

// planAgent maps a step's agent name to a node (and tool: "Google News" is the
// search agent with it); a tool's exact name wins over an agent's synonym.
func planAgent(name string, tools []string) (agent, tool string, ok bool) {
	for _, t := range tools {
		if labels.Key(t) == labels.Key(name) {
			return NodeSearch, t, true
		}
	}
	if l, ok := agentNames.Lookup(name); ok {
		return l, "", true
	}
	if t, ok := labels.Match(name, tools); ok {
		return NodeSearch, t, true
	}
	return "", "", false
}

// Profile extraction fields.
var (
	nameKeys      = []string{"user_name", "name", "username", "person_name", "first_name", "full_name"}
	companyKeys   = []string{"current_company", "company", "employer", "organization", "organisation", "workplace", "works_at"}
	positionKeys  = []string{"current_position", "position", "job", "job_title", "title", "role", "occupation", "profession"}
	locationKeys  = []string{"location", "city", "place", "lives_in", "residence", "home", "hometown"}
	hobbyKeys     = []string{"hobbies", "hobby", "activities", "pastimes"}
	interestKeys  = []string{"interests", "interest", "likes", "topics", "passions"}
	wrapperKeys   = []string{"user_info", "user", "person", "profile", "extraction", "info", "facts", "data"}
	nothingValues = map[string]bool{"": true, "unknown": true, "none": true, "null": true, "nil": true, "na": true,
		"notmentioned": true, "notprovided": true, "notstated": true, "notgiven": true, "unspecified": true, "nothing": true}
)

// parseExtraction reads the facts under any usual name, wrapped or not, lists
// as arrays or comma-separated, "N/A" and the like as nothing.
func parseExtraction(text string) (Extraction, error) {
	raw, ok := labels.ExtractCompleteJSON(text)
	f, isObj := labels.Fields(raw)
	if !ok || !isObj {
		return Extraction{}, nadine.Errorf(nadine.EBADOUTPUT, "agents: answer is not the JSON asked for: %q", nadine.Shorten(text, 120))
	}
	known := append(append(append(append(append(append([]string{}, nameKeys...), companyKeys...), positionKeys...), locationKeys...), hobbyKeys...), interestKeys...)
	if _, ok := labels.Get(f, known...); !ok {
		if v, ok := labels.Get(f, wrapperKeys...); ok {
			if inner, ok := labels.Fields(v); ok {
				f = inner
			}
		}
	}
	fact := func(keys []string) string {
		v, ok := labels.Get(f, keys...)
		if !ok {
			return ""
		}
		s := strings.TrimSpace(labels.Text(v))
		if nothingValues[labels.Key(s)] {
			return ""
		}
		return s
	}
	list := func(keys []string) []string {
		v, ok := labels.Get(f, keys...)
		if !ok {
			return nil
		}
		return labels.Strings(v)
	}
	return Extraction{
		UserName: fact(nameKeys), CurrentCompany: fact(companyKeys), CurrentPosition: fact(positionKeys),
		Location: fact(locationKeys), Hobbies: list(hobbyKeys), Interests: list(interestKeys),
	}, nil
}

// Episode fields.
var (
	observationKeys = []string{"observation", "observations", "summary", "situation"}
	thoughtKeys     = []string{"thought", "thoughts", "reflection", "reasoning", "feeling"}
	episodeActKeys  = []string{"action", "actions", "what_nadine_did", "response"}
	resultKeys      = []string{"result", "results", "outcome", "conclusion"}
)

// parseEpisode needs an observation or a result; a missing thought or action
// is left empty.
func parseEpisode(text string) (episode, error) {
	raw, ok := labels.ExtractCompleteJSON(text)
	f, isObj := labels.Fields(raw)
	if !ok || !isObj {
		return episode{}, nadine.Errorf(nadine.EBADOUTPUT, "agents: answer is not the JSON asked for: %q", nadine.Shorten(text, 120))
	}
	get := func(keys []string) string {
		if v, ok := labels.Get(f, keys...); ok {
			return strings.TrimSpace(labels.Text(v))
		}
		return ""
	}
	ep := episode{Observation: get(observationKeys), Thought: get(thoughtKeys), Action: get(episodeActKeys), Result: get(resultKeys)}
	if ep.Observation == "" && ep.Result == "" {
		return episode{}, nadine.Errorf(nadine.EBADOUTPUT, "agents: episode without observation or result")
	}
	return ep, nil
}

// Search router fields.
var (
	routeToolKeys  = []string{"tool", "tool_name", "name", "search_tool", "engine", "action"}
	routeQueryKeys = []string{"query", "input", "search_query", "q", "question", "text", "message", "action_input", "location"}
)

// parseRoute reads the router's {"tool","query"} or a tool named in text,
// matched against names up to case, spacing and near spellings.
func parseRoute(text string, names []string) (tool, query string, err error) {
	raw, ok := labels.ExtractCompleteJSON(text)
	if f, isObj := labels.Fields(raw); ok && isObj {
		if v, ok := labels.Get(f, routeToolKeys...); ok {
			tool = strings.TrimSpace(labels.Text(v))
		}
		if v, ok := labels.Get(f, routeQueryKeys...); ok {
			query = strings.TrimSpace(labels.Text(v, routeQueryKeys...))
		}
	} else if t, ok := labels.Match(strings.TrimSpace(spoken.StripThinking(text)), names); ok {
		tool = t
	}
	if tool == "" {
		return "", "", nadine.Errorf(nadine.EBADOUTPUT, "agents: search router named no tool")
	}
	if t, ok := labels.Match(tool, names); ok {
		tool = t
	}
	return tool, query, nil
}

// summaryPrefixRE is a label some models put before a summary.
var summaryPrefixRE = regexp.MustCompile(`(?i)^\W{0,3}(?:summary|context|context summary|description|answer|caption|translation)\W{0,3}:\s*`)

// answerText takes a free-text answer past reasoning, a JSON wrapper (keys
// name its field), a leading "Summary:" and enclosing quotes.
func answerText(content string, keys ...string) string {
	t := labels.AnswerText(content, keys...)
	t = summaryPrefixRE.ReplaceAllString(strings.TrimSpace(t), "")
	if c := spoken.Clean(t); strings.Trim(t, "\"“”'«» ") == c {
		t = c
	}
	return strings.TrimSpace(t)
}

// noteText records in the trace that a free-text answer was not used as
// written (its JSON field taken, reasoning or a label dropped).
func noteText(ctx context.Context, role, content, got string) {
	if strings.TrimSpace(content) != got {
		nadine.TraceFrom(ctx).Notef("%s: the answer was read as its text (%d of %d characters kept)", role, len(got), len(strings.TrimSpace(content)))
	}
}

// noteExtraction records in the trace that the profile facts were not in
// the asked-for shape (other keys, a wrapper, lists as strings).
func noteExtraction(ctx context.Context, content string, got Extraction) {
	var strict Extraction
	raw, _ := labels.ExtractJSON(content)
	if json.Unmarshal(raw, &strict) != nil || !reflect.DeepEqual(nonEmptyFacts(strict), nonEmptyFacts(got)) {
		nadine.TraceFrom(ctx).Notef("memory_update_agent: facts read from an answer in another shape")
	}
}

// nonEmptyFacts is x with empty lists as nil, for comparison.
func nonEmptyFacts(x Extraction) Extraction {
	x.Hobbies, x.Interests = nonEmpty(x.Hobbies), nonEmpty(x.Interests)
	return x
}

// noteNormalized records in the trace that a label was read as another.
func noteNormalized(tr *nadine.Trace, what, said, got string) {
	if strings.TrimSpace(said) != got {
		tr.Notef("%s: %q read as %s", what, nadine.Shorten(said, 60), got)
	}
}
