// Package speechcorpus generates model answers the way models really write
// them, by combining independent axes: the wrapper around the answer
// (none, a code fence, prose, a reasoning block, ReAct's text format), a
// defect of its JSON (each one the lenient reader must read), the
// language of its content (en, fr, de, zh) and the role that wrote it
// (the ReAct agent, the graph's response, intent and appraisal). Each
// case says what must come of it: the reply spoken, or the label read.
//
// The content, the languages of the combinations and the details of each
// defect (where a newline or a quote falls, where the answer is cut) come
// from the seed: tests run a tuned seed and held-out seeds whose cases
// are scored, never read while fixing.
package speechcorpus

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/nadine-robot/nadine"
)

// The roles whose answers are generated.
const (
	RoleReact     = "react_agent"       // the ReAct agent's final answer
	RoleResponse  = "response"          // the graph's response
	RoleIntent    = "intent_classifier" // the graph's intent
	RoleAppraisal = "appraisal"         // the graph's appraisal
)

// Wrappers and defects.
var (
	Wrappers = []string{"none", "fence", "prose", "think", "react_text"}
	Defects  = []string{"none", "single_quotes", "python_literals", "trailing_comma", "comments", "raw_newline",
		"unescaped_quotes", "several_objects", "list", "truncated", "double_escape", "unquoted_keys"}
	Roles     = []string{RoleReact, RoleResponse, RoleIntent, RoleAppraisal}
	Languages = []nadine.Language{nadine.English, nadine.French, nadine.German, nadine.Chinese}
)

// Case is one generated answer and what must come of it.
type Case struct {
	ID       string
	Engine   string // react or graph
	Role     string
	Wrapper  string
	Defect   string
	Language nadine.Language
	Say      string // what the visitor says
	Output   string // the model's answer for Role
	// Reply is what must be spoken (RoleReact, RoleResponse).
	Reply string
	// Emotion is the reply's emotion (RoleReact) or the appraised one
	// (RoleAppraisal).
	Emotion nadine.Emotion
	// Intent is the label that must be read (RoleIntent).
	Intent string
}

// Generate returns at least min cases from seed: every valid combination
// of role, wrapper and defect once, each in a language the seed picks,
// then again in other languages until there are min.
func Generate(seed uint64, min int) []Case {
	rng := rand.New(rand.NewPCG(seed, seed*0x9e3779b97f4a7c15+1))
	var out []Case
	for pass := 0; len(out) < min || pass == 0; pass++ {
		for _, role := range Roles {
			for _, w := range Wrappers {
				for _, d := range Defects {
					if !valid(role, w, d) {
						continue
					}
					lang := Languages[(rng.IntN(len(Languages))+pass)%len(Languages)]
					g := gen{rng: rng, lang: lang}
					c := g.build(role, w, d)
					c.ID = fmt.Sprintf("s%d-%03d-%s-%s-%s-%s", seed, len(out), role, w, d, lang)
					out = append(out, c)
					if pass > 0 && len(out) >= min {
						return out
					}
				}
			}
		}
	}
	return out
}

// valid reports whether a defect applies to a role's answer in a wrapper:
// the text format has no JSON to be wrong; a label has no text for a
// newline, a quote or an escape.
func valid(role, wrapper, defect string) bool {
	if wrapper == "react_text" {
		return defect == "none" || (defect == "raw_newline" && (role == RoleReact || role == RoleResponse))
	}
	if role == RoleIntent || role == RoleAppraisal {
		switch defect {
		case "raw_newline", "unescaped_quotes", "double_escape":
			return false
		}
	}
	return true
}

// gen builds one case.
type gen struct {
	rng  *rand.Rand
	lang nadine.Language
}

func (g gen) pick(xs []string) string { return xs[g.rng.IntN(len(xs))] }

func (g gen) build(role, wrapper, defect string) Case {
	c := Case{Role: role, Wrapper: wrapper, Defect: defect, Language: g.lang, Engine: "graph"}
	if role == RoleReact {
		c.Engine = "react"
	}
	switch role {
	case RoleReact, RoleResponse:
		sents := g.reply(defect == "unescaped_quotes")
		c.Reply = strings.Join(sents, g.sep())
		c.Say = g.pick(says[g.lang])
		c.Emotion = nadine.Emotion(g.pick([]string{"joy", "surprise", "sadness"}))
		c.Output = g.replyAnswer(role, wrapper, defect, sents, c.Emotion)
		if wrapper == "react_text" {
			c.Emotion = nadine.Neutral // the text format names no emotion
		}
	case RoleIntent:
		i := g.rng.IntN(len(intentSays))
		c.Intent, c.Say = intentSays[i].label, intentSays[i].say[g.lang]
		c.Output = g.labelAnswer(wrapper, defect, member{"intent", c.Intent}, nil, c.Intent, otherIntent(c.Intent))
	case RoleAppraisal:
		c.Emotion = nadine.Emotion(g.pick([]string{"joy", "sadness", "anger", "surprise", "fear"}))
		n := 6 + g.rng.IntN(4)
		c.Say = g.pick(says[g.lang])
		other := "joy"
		if c.Emotion == "joy" {
			other = "surprise"
		}
		c.Output = g.labelAnswer(wrapper, defect, member{"emotion", string(c.Emotion)}, &member{"intensity", n},
			fmt.Sprintf("%s %d", c.Emotion, n), other)
	}
	return c
}

// sep joins the sentences of a reply as they are spoken.
func (g gen) sep() string {
	if g.lang == nadine.Chinese {
		return ""
	}
	return " "
}

// reply returns two sentences of a reply: a greeting by name, then a
// statement (one with quotation marks in it when quoted).
func (g gen) reply(quoted bool) []string {
	name := g.pick(names)
	first := fmt.Sprintf(g.pick(greetings[g.lang]), name)
	second := g.pick(statements[g.lang])
	if quoted {
		second = g.pick(quotedStatements[g.lang])
	}
	return []string{first, second}
}

// member is one member of an answer's object.
type member struct {
	key   string
	value any // string, int, bool or nil
}

// replyAnswer renders a reply in a role's format, with the defect, in the
// wrapper.
func (g gen) replyAnswer(role, wrapper, defect string, sents []string, emotion nadine.Emotion) string {
	if wrapper == "react_text" {
		text := strings.Join(sents, g.sep())
		if defect == "raw_newline" {
			text = strings.Join(sents, "\n")
		}
		return g.pick(thoughts) + "\nFinal Answer: " + text
	}
	var obj []member
	key := "response"
	switch role {
	case RoleReact:
		key = "action_input"
		obj = []member{{"action", "Final Answer"}, {"emotion", string(emotion)}, {"emotion_intensity", 4 + g.rng.IntN(5)}}
	case RoleResponse:
		if defect == "none" {
			// The response's own format: prose.
			return g.wrap(wrapper, strings.Join(sents, g.sep()), false)
		}
		key = g.pick([]string{"response", "reply", "text"})
	}
	obj = append(obj, member{key, strings.Join(sents, g.sep())})
	if role == RoleReact {
		obj = append(obj, member{"category", g.pick([]string{"greeting", "other", "information request"})}, member{"causing_person", "human"})
	} else {
		obj = append(obj, member{"emotion", string(emotion)})
	}
	return g.wrap(wrapper, g.object(obj, defect, key, sents), true)
}

// labelAnswer renders a label (an intent, an emotion with its intensity)
// with the defect, in the wrapper; compact is the label as the prompt asks
// for it, other a label named before it in reasoning.
func (g gen) labelAnswer(wrapper, defect string, label member, extra *member, compact, other string) string {
	if wrapper == "react_text" {
		return fmt.Sprintf("Thought: it might be %s, but no.\n%s: %s", other, capitalize(label.key), compact)
	}
	obj := []member{label}
	if extra != nil {
		obj = append(obj, *extra)
	}
	obj = append(obj, member{"reason", g.pick(reasons)})
	return g.wrap(wrapper, g.object(obj, defect, "reason", nil), true)
}

// wrap puts the answer in the wrapper.
func (g gen) wrap(wrapper, answer string, isJSON bool) string {
	switch wrapper {
	case "fence":
		if isJSON {
			return "```json\n" + answer + "\n```"
		}
		return "```\n" + answer + "\n```"
	case "prose":
		if isJSON {
			return g.pick(leads) + "\n" + answer + "\n" + g.pick(trailers)
		}
		return answer // a prose reply is already prose
	case "think":
		return fmt.Sprintf(g.pick(thinkForms), g.pick(reasons)) + answer
	}
	return answer
}

// object writes the members as a model would, with the defect; text is
// the member whose value is the reply (split into sents for the defects
// that fall between sentences).
func (g gen) object(obj []member, defect, text string, sents []string) string {
	q := `"`
	if defect == "single_quotes" || defect == "python_literals" {
		q = "'"
	}
	var b strings.Builder
	b.WriteString("{")
	if defect == "comments" {
		b.WriteString(" // " + g.pick(reasons) + "\n")
	}
	for i, m := range obj {
		if i > 0 {
			b.WriteString(", ")
			if defect == "comments" && i == 1 {
				b.WriteString("/* the rest */ ")
			}
		}
		key := q + m.key + q
		if defect == "unquoted_keys" {
			key = m.key
		}
		b.WriteString(key + ": ")
		switch v := m.value.(type) {
		case string:
			b.WriteString(g.str(v, q, defect, m.key == text, sents))
		case int:
			fmt.Fprint(&b, v)
		}
		if defect == "truncated" && m.key == text && i+1 < len(obj) {
			// Cut inside the next member.
			next := obj[i+1]
			cut := q + next.key + q + ": " + q
			if s, ok := next.value.(string); ok && len(s) > 2 {
				cut += s[:1+g.rng.IntN(len(s)-1)]
			}
			b.WriteString(", " + cut)
			return b.String()
		}
	}
	if defect == "python_literals" {
		b.WriteString(", " + q + "confident" + q + ": True, " + q + "note" + q + ": None")
	}
	if defect == "trailing_comma" {
		b.WriteString(",")
	}
	b.WriteString("}")
	s := b.String()
	switch defect {
	case "several_objects":
		s += "\n" + g.pick([]string{`{"note": "first answer above"}`, `{"status": "done"}`, s})
	case "list":
		s = "[" + s + "]"
	}
	return s
}

// str writes a string value with the defect (the reply's string only:
// raw newline between its sentences, inner quotes left unescaped, double
// escapes).
func (g gen) str(v, q, defect string, reply bool, sents []string) string {
	if !reply {
		return q + escape(v, q) + q
	}
	switch defect {
	case "raw_newline":
		parts := make([]string, len(sents))
		for i, s := range sents {
			parts[i] = escape(s, q)
		}
		return q + strings.Join(parts, "\n") + q
	case "unescaped_quotes":
		return q + v + q
	case "double_escape":
		var b strings.Builder
		for i, s := range sents {
			if i > 0 {
				b.WriteString(`\\n`)
			}
			for _, r := range escape(s, q) {
				if r > 127 {
					fmt.Fprintf(&b, `\\u%04x`, r)
				} else {
					b.WriteRune(r)
				}
			}
		}
		return q + b.String() + q
	}
	return q + escape(v, q) + q
}

// escape escapes a string's content for a JSON (or Python) string quoted
// with q.
func escape(s, q string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return strings.ReplaceAll(s, q, `\`+q)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func otherIntent(label string) string {
	if label == "continue_conversation" {
		return "first_greeting"
	}
	return "continue_conversation"
}
