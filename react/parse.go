package react

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/nadine-robot/nadine"
)

// finalAction is the action name of a final answer.
const finalAction = "Final Answer"

// step is one parsed model answer: a tool call or a final answer.
type step struct {
	Action        string
	Input         string
	Category      nadine.Category
	Emotion       nadine.Emotion
	Intensity     int
	CausingPerson string
}

func (s step) final() bool { return strings.EqualFold(s.Action, finalAction) }

// rawStep is the JSON the model writes; fields are loose so that we can
// say precisely what is wrong.
type rawStep struct {
	Action        *string         `json:"action"`
	ActionInput   json.RawMessage `json:"action_input"`
	Category      *string         `json:"category"`
	Emotion       *string         `json:"emotion"`
	Intensity     json.RawMessage `json:"emotion_intensity"`
	CausingPerson *string         `json:"causing_person"`
}

// extractJSON finds the JSON value of a model answer: the first fenced code
// block if there is one, else the first JSON object or array in the text.
func extractJSON(text string) ([]byte, error) {
	s := text
	if i := strings.Index(s, "```"); i >= 0 {
		rest := s[i+3:]
		// Skip the language tag line ("json").
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 && !strings.ContainsAny(rest[:nl], "{[") {
			rest = rest[nl+1:]
		}
		if j := strings.Index(rest, "```"); j >= 0 {
			rest = rest[:j]
		}
		s = rest
	}
	start := strings.IndexAny(s, "{[")
	if start < 0 {
		return nil, fmt.Errorf("no JSON object found in your answer")
	}
	dec := json.NewDecoder(strings.NewReader(s[start:]))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	return raw, nil
}

// parseStep parses and validates a model answer against the output
// contract. user is the user's display name (a valid causing_person); tools
// are the registered tool names. Errors are meant for the model to read.
func parseStep(text, user string, tools []string) (step, error) {
	r, err := decodeStep(text)
	if err != nil {
		return step{}, err
	}
	if r.Action == nil || strings.TrimSpace(*r.Action) == "" {
		return step{}, fmt.Errorf("missing \"action\"")
	}
	s := step{Action: strings.TrimSpace(*r.Action), Input: inputText(r.ActionInput)}
	if !s.final() {
		for _, t := range tools {
			if strings.EqualFold(t, s.Action) {
				s.Action = t
				return s, nil
			}
		}
		if len(tools) == 0 {
			return step{}, fmt.Errorf("unknown action %q: there are no tools, use \"Final Answer\"", s.Action)
		}
		return step{}, fmt.Errorf("unknown action %q: use one of %s, or \"Final Answer\"", s.Action, strings.Join(tools, ", "))
	}
	s.Action = finalAction
	if err := s.setMeta(r, user); err != nil {
		return step{}, err
	}
	if strings.TrimSpace(s.Input) == "" {
		return step{}, fmt.Errorf("\"action_input\" must hold your reply")
	}
	return s, nil
}

// decodeStep finds the JSON of a model answer and decodes it, keys in any
// order; a list of actions yields its first (seed 000).
func decodeStep(text string) (rawStep, error) {
	raw, err := extractJSON(text)
	if err != nil {
		return rawStep{}, err
	}
	raw = bytes.TrimSpace(raw)
	if raw[0] == '[' {
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return rawStep{}, fmt.Errorf("invalid JSON list: %v", err)
		}
		if len(list) == 0 {
			return rawStep{}, fmt.Errorf("empty list of actions")
		}
		raw = list[0]
	}
	var r rawStep
	if err := json.Unmarshal(raw, &r); err != nil {
		return rawStep{}, fmt.Errorf("the JSON must be an object with \"action\" and \"action_input\": %v", err)
	}
	return r, nil
}

// setMeta validates the four emotion fields of a final answer, in the
// order the prompt asks for them.
func (s *step) setMeta(r rawStep, user string) error {
	if err := s.setFeeling(r); err != nil {
		return err
	}
	c, err := parseCategory(r.Category)
	if err != nil {
		return err
	}
	p, err := parseCause(r.CausingPerson, user)
	if err != nil {
		return err
	}
	s.Category, s.CausingPerson = c, p
	return nil
}

// setFeeling validates Nadine's emotion and its intensity: the fields the
// prompt puts before the reply text, which must be known before she
// speaks.
func (s *step) setFeeling(r rawStep) error {
	if r.Emotion == nil {
		return fmt.Errorf("missing \"emotion\"")
	}
	e := nadine.Emotion(strings.ToLower(strings.TrimSpace(*r.Emotion)))
	if !e.Valid() || e == nadine.Neutral {
		return fmt.Errorf("invalid emotion %q: use joy, sadness, fear, disgust, anger or surprise", *r.Emotion)
	}
	n, err := intensity(r.Intensity)
	if err != nil {
		return err
	}
	s.Emotion, s.Intensity = e, n
	return nil
}

// parseCategory validates the category of the person's input.
func parseCategory(raw *string) (nadine.Category, error) {
	if raw == nil {
		return "", fmt.Errorf("missing \"category\"")
	}
	c := nadine.Category(strings.ToLower(strings.TrimSpace(*raw)))
	if c == "compliment" {
		c = nadine.CategoryComplement
	}
	if !c.Valid() {
		return "", fmt.Errorf("invalid category %q: use greeting, farewell, insult, complement, information request or other", *raw)
	}
	return c, nil
}

// parseCause validates who caused Nadine's emotion: the user (by name),
// SELF, human or SOMEONE ELSE.
func parseCause(raw *string, user string) (string, error) {
	if raw == nil {
		return "", fmt.Errorf("missing \"causing_person\"")
	}
	p := strings.TrimSpace(*raw)
	switch {
	case strings.EqualFold(p, user) && user != "":
		return user, nil
	case strings.EqualFold(p, nadine.CausedBySelf):
		return nadine.CausedBySelf, nil
	case strings.EqualFold(p, nadine.CausedByHuman):
		return nadine.CausedByHuman, nil
	case strings.EqualFold(p, nadine.CausedBySomeoneElse):
		return nadine.CausedBySomeoneElse, nil
	}
	return "", fmt.Errorf("invalid causing_person %q: use %q, SELF, human or SOMEONE ELSE", p, user)
}

func intensity(raw json.RawMessage) (int, error) {
	if len(raw) == 0 {
		return 0, fmt.Errorf("missing \"emotion_intensity\"")
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0, fmt.Errorf("\"emotion_intensity\" must be a number from 0 to 10")
		}
		if f, err = strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
			return 0, fmt.Errorf("\"emotion_intensity\" must be a number from 0 to 10, not %q", s)
		}
	}
	if f < 0 || f > 10 {
		return 0, fmt.Errorf("\"emotion_intensity\" must be from 0 to 10, not %v", f)
	}
	return int(f + 0.5), nil
}

// inputText returns action_input as text: a JSON string as is, anything
// else (an object a model invented) as its JSON.
func inputText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}
