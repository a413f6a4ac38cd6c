package react

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/answer"
	"github.com/nadine-robot/nadine/labels"
	"github.com/nadine-robot/nadine/speakable"
	"github.com/nadine-robot/nadine/spoken"
)

// finalAction is the action name of a final answer.
const finalAction = "Final Answer"

// finalNames are the ways models write the final answer's action.
var finalNames = labels.NewTable([]string{finalAction}, map[string][]string{finalAction: {
	"final_answer", "final", "answer", "final response", "final reply", "reply", "respond", "response",
	"say", "speak", "talk", "direct answer", "answer directly", "finish", "done",
}})

// The answer's JSON members, each with the names models give it (matched by
// labels.Key, so "actionInput" and "Action Input" are one).
var (
	actionKeys    = []string{"action", "tool", "tool_name", "action_name", "function", "name"}
	inputKeys     = []string{"action_input", "input", "tool_input", "action_inputs", "arguments", "args", "parameters", "reply", "answer", "response", "text", "output", "message", "content", "speech"}
	emotionKeys   = []string{"emotion", "feeling", "nadine_emotion", "your_emotion", "emotion_label", "mood"}
	intensityKeys = []string{"emotion_intensity", "intensity", "emotion_level", "emotion_strength", "emotion_score", "level"}
	categoryKeys  = []string{"category", "input_category", "statement_category", "classification", "user_category"}
	causeKeys     = []string{"causing_person", "cause", "caused_by", "causer", "causing", "emotion_cause", "cause_person", "person"}
	// replyKeys hold the reply in an object action_input.
	replyKeys = []string{"reply", "text", "answer", "response", "message", "content", "speech", "say", "output", "final_answer", "action_input", "input"}
	// toolKeys hold a tool's input in an object action_input.
	toolKeys = []string{"input", "action_input", "query", "question", "q", "search", "search_query", "search_term", "text",
		"location", "song", "song_name", "title", "language", "gesture", "behaviour", "behavior", "animation", "command", "name"}
)

// step is one parsed model answer: a tool call or a final answer.
type step struct {
	Action        string
	Input         string
	Category      nadine.Category
	Emotion       nadine.Emotion
	Intensity     int
	CausingPerson string
}

func (s step) final() bool { return s.Action == finalAction }

// parseKind says what is wrong with an answer that cannot be used.
type parseKind int

const (
	// unusable: the answer's own content is wrong (an unknown tool, no
	// reply text): fed back up to ParseRetries times.
	unusable parseKind = iota
	// prose: plain text with no JSON that reads as speech; fed back once,
	// then spoken as the reply with default fields.
	prose
	// junk: output that is not a reply (markup, code, a prompt echo): retried
	// once, then the engine gives up.
	junk
)

// parseError is why an answer cannot be used; its message is meant for
// the model to read.
type parseError struct {
	kind parseKind
	msg  string
	// text is the spoken form of a prose answer.
	text string
}

func (e *parseError) Error() string { return e.msg }

func failf(kind parseKind, format string, args ...any) error {
	return &parseError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// kindOf returns the kind of a parse error (unusable for any other error).
func kindOf(err error) parseKind {
	var pe *parseError
	if errors.As(err, &pe) {
		return pe.kind
	}
	return unusable
}

// parser holds what parsing a step needs; its sentence gate (speakable) refuses
// a reply that echoes the prompt or is not speech.
type parser struct {
	user  string
	tools []string
	check *speakable.Checker
	lang  nadine.Language
}

// speech returns a reply as it is to be spoken (see speakable.Checker).
func (p parser) speech(text string) (string, []string, error) {
	return p.check.Reply(text, p.lang)
}

// parse normalizes rather than refuses, returning each normalization as a trace
// note; an error means no reply text, an unknown tool, or not a reply.
func (p parser) parse(text string) (step, []string, error) {
	raw, ok := labels.ExtractJSON(text)
	if !ok {
		if s, notes, ok := p.classic(text); ok {
			return s, notes, nil
		}
		spoken, _, err := p.speech(text)
		if err != nil {
			return step{}, nil, failf(junk, "no JSON object found in your answer, and it is not a reply (%v)", err)
		}
		return step{}, nil, &parseError{kind: prose, msg: "no JSON object found in your answer", text: spoken}
	}
	if raw[0] == '[' {
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return step{}, nil, failf(junk, "invalid JSON list: %v", err)
		}
		if len(list) == 0 {
			return step{}, nil, failf(unusable, "empty list of actions")
		}
		raw = list[0] // a list of actions yields its first
	}
	f, ok := labels.Fields(raw)
	if !ok {
		return step{}, nil, failf(junk, "the JSON must be an object with \"action\" and \"action_input\"")
	}
	return p.fields(f)
}

// fields reads a step from the members of the answer's object.
func (p parser) fields(f map[string]json.RawMessage) (step, []string, error) {
	var notes []string
	actionRaw, hasAction := labels.Get(f, actionKeys...)
	action := strings.TrimSpace(labels.Text(actionRaw))
	input, hasInput := labels.Get(f, inputKeys...)
	if !hasAction || action == "" {
		// {"Final Answer": "Hello!"}, or the reply without its action.
		if v, ok := labels.Get(f, "final_answer", "final"); ok {
			input, hasInput = v, true
		}
		if !hasInput {
			// {"antwort": "Hallo!"}: a field named as the reply in
			// another language (answer.NamesReply, as the graph reads it).
			for _, k := range slices.Sorted(maps.Keys(f)) {
				if answer.NamesReply(k) {
					input, hasInput = f[k], true
					break
				}
			}
		}
		if !hasInput {
			return step{}, nil, failf(unusable, "missing \"action\"")
		}
		notes = append(notes, "no \"action\": read as the final answer")
		action = finalAction
	}
	if name, ok := finalNames.Lookup(action); ok {
		if action != name {
			notes = append(notes, fmt.Sprintf("action %q read as %q", action, name))
		}
		return p.final(f, input, notes)
	}
	tool, ok := labels.Match(action, p.tools)
	if !ok {
		if len(p.tools) == 0 {
			return step{}, nil, failf(unusable, "unknown action %q: there are no tools, use \"Final Answer\"", action)
		}
		return step{}, nil, failf(unusable, "unknown action %q: use one of %s, or \"Final Answer\"", action, strings.Join(p.tools, ", "))
	}
	if tool != action {
		notes = append(notes, fmt.Sprintf("action %q read as the tool %q", action, tool))
	}
	in := strings.TrimSpace(labels.Text(input, toolKeys...))
	if isObject(input) {
		notes = append(notes, fmt.Sprintf("tool input %s read as %q", short(string(input)), in))
	}
	return step{Action: tool, Input: in}, notes, nil
}

// final reads a final answer: the reply must be there and be speech; the
// four other fields get a default when missing or unreadable.
func (p parser) final(f map[string]json.RawMessage, input json.RawMessage, notes []string) (step, []string, error) {
	text := strings.TrimSpace(labels.Text(input, replyKeys...))
	if isObject(input) {
		// The field named as the reply, as the graph reads it: never a
		// source or a reasoning beside it ({"réponse": …, "source": …}).
		if t := strings.TrimSpace(labels.Reply(input, replyKeys...)); t != "" {
			text = t
		}
		notes = append(notes, "the reply was an object: its text was taken")
		// Some models put the emotion fields inside action_input.
		if inner, ok := labels.Fields(input); ok {
			for k, v := range inner {
				if _, ok := f[k]; !ok {
					f[k] = v
				}
			}
		}
	}
	if text == "" {
		return step{}, nil, failf(unusable, "\"action_input\" must hold your reply")
	}
	spoken, dropped, err := p.speech(text)
	if err != nil {
		return step{}, nil, failf(junk, "your reply in \"action_input\" is not plain spoken text (%v)", err)
	}
	if len(dropped) > 0 {
		notes = append(notes, fmt.Sprintf("%d sentence(s) of the reply were not speech and are not said", len(dropped)))
	}
	s := step{Action: finalAction, Input: spoken}
	notes = append(notes, s.readMeta(f, p.user)...)
	return s, notes, nil
}

// readMeta reads the emotion, its intensity, the category and the causing
// person, each normalized or defaulted, and returns a note per change.
func (s *step) readMeta(f map[string]json.RawMessage, user string) []string {
	notes := s.readFeeling(f)
	var n []string
	s.Category, n = readCategory(f)
	notes = append(notes, n...)
	s.CausingPerson, n = readCause(f, user)
	return append(notes, n...)
}

// readFeeling defaults a missing emotion to neutral and intensity to 5 (0 when
// neutral), and clamps it to 0–10.
func (s *step) readFeeling(f map[string]json.RawMessage) []string {
	var notes []string
	raw, ok := labels.Get(f, emotionKeys...)
	said := strings.TrimSpace(labels.Text(raw))
	e, known := labels.Emotion(said)
	switch {
	case !ok:
		e = nadine.Neutral
		notes = append(notes, "no \"emotion\": neutral")
	case !known:
		e = nadine.Neutral
		notes = append(notes, fmt.Sprintf("emotion %q unknown: neutral", said))
	case said != string(e):
		notes = append(notes, fmt.Sprintf("emotion %q read as %s", said, e))
	}
	s.Emotion = e
	rawN, ok := labels.Get(f, intensityKeys...)
	n, readable := labels.Intensity(rawN)
	switch {
	case !ok || !readable:
		n = 5
		if e == nadine.Neutral {
			n = 0
		}
		if !ok {
			notes = append(notes, fmt.Sprintf("no \"emotion_intensity\": %d", n))
		} else {
			notes = append(notes, fmt.Sprintf("emotion_intensity %s unreadable: %d", short(string(rawN)), n))
		}
	case string(rawN) != fmt.Sprint(n):
		notes = append(notes, fmt.Sprintf("emotion_intensity %s read as %d", short(string(rawN)), n))
	}
	s.Intensity = n
	return notes
}

// readCategory reads the category of the person's input (other when
// missing or unknown).
func readCategory(f map[string]json.RawMessage) (nadine.Category, []string) {
	raw, ok := labels.Get(f, categoryKeys...)
	if !ok {
		return nadine.CategoryOther, []string{"no \"category\": other"}
	}
	said := strings.TrimSpace(labels.Text(raw))
	c, known := labels.Category(said)
	switch {
	case !known:
		return nadine.CategoryOther, []string{fmt.Sprintf("category %q unknown: other", said)}
	case said != string(c):
		return c, []string{fmt.Sprintf("category %q read as %s", said, c)}
	}
	return c, nil
}

// readCause reads who caused the emotion; with nothing usable it is the user,
// or human when nobody is known.
func readCause(f map[string]json.RawMessage, user string) (string, []string) {
	raw, ok := labels.Get(f, causeKeys...)
	if !ok {
		p, _ := labels.CausingPerson("", user)
		return p, []string{fmt.Sprintf("no \"causing_person\": %s", p)}
	}
	said := strings.TrimSpace(labels.Text(raw))
	p, usable := labels.CausingPerson(said, user)
	switch {
	case !usable:
		return p, []string{fmt.Sprintf("causing_person %q unusable: %s", short(said), p)}
	case !strings.EqualFold(said, p):
		return p, []string{fmt.Sprintf("causing_person %q read as %s", said, p)}
	}
	return p, nil
}

// classicFinalRE and classicActionRE read the text format of LangChain's
// ReAct prompt, which many models write from habit instead of JSON.
var (
	classicFinalRE  = regexp.MustCompile(`(?is)(?:^|\n)\W{0,3}final answer\W{0,3}:\s*(.+)`)
	classicActionRE = regexp.MustCompile(`(?im)^\W{0,3}action\W{0,3}:\s*(.+?)\s*$`)
	classicInputRE  = regexp.MustCompile(`(?is)(?:^|\n)\W{0,3}action input\W{0,3}:\s*(.+?)\s*(?:\n\s*observation\s*:|$)`)
)

// classic reads ReAct's text format ("Final Answer:", or "Action:" then
// "Action Input:"), defaulting a final answer's fields.
func (p parser) classic(text string) (step, []string, bool) {
	text = spoken.StripThinking(text)
	if m := classicActionRE.FindStringSubmatch(text); m != nil {
		action := strings.TrimSpace(m[1])
		input := ""
		if in := classicInputRE.FindStringSubmatch(text); in != nil {
			input = strings.Trim(strings.TrimSpace(in[1]), "\"'`")
		}
		if _, ok := finalNames.Lookup(action); !ok {
			if tool, ok := labels.Match(action, p.tools); ok {
				return step{Action: tool, Input: input}, []string{"answer in ReAct's text format: tool " + tool}, true
			}
		} else if input != "" {
			return p.classicFinal(input)
		}
	}
	if m := classicFinalRE.FindStringSubmatch(text); m != nil {
		return p.classicFinal(m[1])
	}
	return step{}, nil, false
}

func (p parser) classicFinal(reply string) (step, []string, bool) {
	spoken, _, err := p.speech(reply)
	if err != nil {
		return step{}, nil, false
	}
	s := step{Action: finalAction, Input: spoken}
	notes := append([]string{"answer in ReAct's text format, not JSON"}, s.readMeta(map[string]json.RawMessage{}, p.user)...)
	return s, notes, true
}

// proseStep is a plain-prose answer spoken as the reply, with the default
// fields.
func (p parser) proseStep(spoken string) (step, []string) {
	s := step{Action: finalAction, Input: spoken}
	notes := append([]string{"a plain-prose answer with no JSON is spoken as the reply"}, s.readMeta(map[string]json.RawMessage{}, p.user)...)
	return s, notes
}

func isObject(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	return strings.HasPrefix(t, "{")
}
