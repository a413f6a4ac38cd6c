package answer

import (
	"regexp"
	"strings"
)

// reasoningNames are the words models name their reasoning with, in tags
// (<think>, [THINK], <|channel|>analysis) and in labels ("Thought:").
const reasoningNames = `think|thinking|thought|thoughts|reasoning|reason|reflection|reflect|analysis|analyze|scratchpad|inner[_ ]?monologue|internal[_ ]?thoughts?|chain[_ ]?of[_ ]?thought|pensée|réflexion|raisonnement|gedanke|gedanken|überlegung|überlegungen|nachdenken|思考|推理|分析|想法`

// ReasoningNames are reasoningNames for readers that cut a labelled thought
// in their own way (package speakable cuts one inside prose).
const ReasoningNames = reasoningNames

var (
	// tagOpenRE opens a reasoning block: <think>, <thinking>, [THINK],
	// <|think|>, with attributes or not.
	tagOpenRE = regexp.MustCompile(`(?i)(<\|?|\[)(` + reasoningNames + `)(?:\s[^>\]]{0,40})?(\|?>|\])`)
	// harmonyRE is a gpt-oss analysis channel (its final channel is the
	// answer).
	harmonyRE      = regexp.MustCompile(`(?s)<\|channel\|>\s*(?:analysis|commentary)[^<]*<\|message\|>.*?(?:<\|end\|>|<\|start\|>|$)`)
	harmonyFinalRE = regexp.MustCompile(`(?s)<\|channel\|>\s*final[^<]*<\|message\|>`)
	// harmonyBareFinalRE and harmonyBareStartRE are the same channels as a
	// server prints them when it drops the special tokens
	// ("analysisThe user greets…assistantfinalHello!"): the words glued.
	harmonyBareFinalRE = regexp.MustCompile(`(?i)assistant ?final(?:\s*[:：])?`)
	harmonyBareStartRE = regexp.MustCompile(`^\s*(?i:analysis|commentary)\p{Lu}`)
	// tagCloseRE closes any reasoning block.
	tagCloseRE = regexp.MustCompile(`(?i)(?:</|\[/|<\|/)(?:` + reasoningNames + `)(?:\|?>|\])`)
	// thoughtLineRE is a line that starts with a reasoning label
	// ("Thought:", "**Reasoning**:", "思考：").
	thoughtLineRE = regexp.MustCompile(`(?im)^[ \t>*_#-]{0,6}(?:` + reasoningNames + `)[ \t*_]{0,3}(?:\(\w+\))?[ \t]*[:：]`)
	// nextPartRE ends a labelled thought: a blank line, another label, or a
	// JSON answer.
	nextPartRE = regexp.MustCompile(`(?im)\n[ \t]*\n|\n[ \t>*_#-]{0,6}[\p{L}][\p{L} _]{0,30}[ \t*_]{0,3}[:：]|\n[ \t]*(?:\x60\x60\x60|\{|\[)`)
)

// Preamble drops the reasoning a model wrote before its answer: tagged
// blocks (even half-open ones) and labelled thoughts ("Thought: …").
func Preamble(text string) string {
	s := text
	if loc := harmonyFinalRE.FindStringIndex(s); loc != nil {
		s = s[loc[1]:]
	} else if locs := harmonyBareFinalRE.FindAllStringIndex(s, -1); locs != nil {
		s = s[locs[len(locs)-1][1]:]
	} else if harmonyBareStartRE.MatchString(s) {
		return "" // the analysis channel alone: no answer yet
	}
	s = harmonyRE.ReplaceAllString(s, " ")
	s = stripTagged(s)
	s = stripThoughtLines(s)
	return strings.TrimSpace(s)
}

// stripTagged removes reasoning blocks in tags.
func stripTagged(s string) string {
	for range 16 {
		loc := tagOpenRE.FindStringSubmatchIndex(s)
		if loc == nil {
			break
		}
		name := strings.ToLower(s[loc[4]:loc[5]])
		rest := s[loc[1]:]
		closeRE := regexp.MustCompile(`(?i)(?:<\|?/|\[/)` + regexp.QuoteMeta(name) + `(?:\|?>|\])`)
		end := closeRE.FindStringIndex(rest)
		if end == nil {
			s = s[:loc[0]]
			break
		}
		s = s[:loc[0]] + " " + rest[end[1]:]
	}
	// A closing tag alone: its block began in the chat template.
	if locs := tagCloseRE.FindAllStringIndex(s, -1); len(locs) > 0 {
		s = s[locs[len(locs)-1][1]:]
	}
	return s
}

// stripThoughtLines removes labelled thoughts.
func stripThoughtLines(s string) string {
	for range 16 {
		loc := thoughtLineRE.FindStringIndex(s)
		if loc == nil {
			return s
		}
		rest := s[loc[1]:]
		end := len(rest)
		if m := nextPartRE.FindStringIndex(rest); m != nil {
			end = m[0]
		}
		s = s[:loc[0]] + rest[end:]
	}
	return s
}
