package answer

import (
	"regexp"
	"strings"
)

// TextStep is an answer in LangChain's ReAct text format, which models write
// from habit even when asked for JSON.
type TextStep struct {
	// Action is the named action ("Weather App", "Final Answer"), "" when
	// there is none; Input its input.
	Action, Input string
	// Final is the text after "Final Answer:", when there is one.
	Final    string
	HasFinal bool
}

// The labels of the format, decorated as models decorate them (bullets,
// bold, headings) and in the languages Nadine speaks.
const (
	labelLead   = `[ \t>*_#-]{0,6}`
	labelTail   = `[ \t*_]{0,3}[:：]`
	finalLabels = `final[ _]answer|final[ _]response|final[ _]reply|réponse finale|endgültige antwort|最终答案|最终回答`
	// inputLabels name the action's input, actionLabels the action.
	inputLabels  = `action[ _]input|entrée de l'action|entrée d'action|aktionseingabe|aktions[ _-]?eingabe|eingabe der aktion|行动输入|动作输入`
	actionLabels = `action|aktion|行动|动作`
	// anyLabel is any label of the format: where a part ends. "Question:"
	// opens LangChain's template (the visitor's words, echoed).
	anyLabel = `(?:observation|beobachtung|观察|question|frage|问题|` + inputLabels + `|` + actionLabels + `|` + finalLabels + `|` + reasoningNames + `)`
)

// InputLabels are the labels of the action's input in the languages Nadine
// speaks: a reply given to the final answer's action follows one.
const InputLabels = inputLabels

var (
	actionRE = regexp.MustCompile(`(?im)^` + labelLead + `(?:` + actionLabels + `)` + labelTail + `[ \t*_]*(.+?)[ \t*_]*$`)
	inputRE  = regexp.MustCompile(`(?is)(?:^|\n)` + labelLead + `(?:` + inputLabels + `)` + labelTail + `[\s*_]*(.+?)\s*(?:\n` + labelLead + anyLabel + labelTail + `|$)`)
	finalRE  = regexp.MustCompile(`(?is)(?:^|\n)` + labelLead + `(?:` + finalLabels + `)` + labelTail + `[\s*_]*(.+?)\s*(?:\n` + labelLead + anyLabel + labelTail + `|$)`)
)

// ReAct reads an answer in ReAct's text format (after its reasoning, see
// Preamble); ok is false when it has neither an action nor a final answer.
func ReAct(text string) (TextStep, bool) {
	s := Preamble(text)
	var st TextStep
	if m := actionRE.FindStringSubmatch(s); m != nil {
		st.Action = strings.Trim(strings.TrimSpace(m[1]), "\"'`")
		if in := inputRE.FindStringSubmatch(s); in != nil {
			st.Input = strings.Trim(strings.TrimSpace(in[1]), "\"'`")
		}
	}
	if m := finalRE.FindStringSubmatch(s); m != nil {
		st.Final, st.HasFinal = strings.TrimSpace(m[1]), true
	}
	return st, st.Action != "" || st.HasFinal
}

var (
	// labelRE is a label of the ReAct format at the start of a text.
	labelRE      = regexp.MustCompile(`(?is)^` + labelLead + `(` + anyLabel + `)` + labelTail + `\s*`)
	finalLabelRE = regexp.MustCompile(`^(?:` + finalLabels + `)$`)
)

// FormatLabel reports whether text starts with a ReAct label, however
// decorated ("**Action Input:**", "思考："), lowercased, and the rest.
func FormatLabel(text string) (label, rest string, ok bool) {
	m := labelRE.FindStringSubmatchIndex(text)
	if m == nil {
		return "", text, false
	}
	return strings.ToLower(text[m[2]:m[3]]), text[m[1]:], true
}

// IsFinalLabel reports whether a label of FormatLabel introduces the final
// answer.
func IsFinalLabel(label string) bool {
	return finalLabelRE.MatchString(label)
}
