package react

import (
	"regexp"
	"strings"

	"github.com/nadine-robot/nadine/spoken"
)

// rewriteLabelRE is a label a model puts before its rewrite ("Standalone
// question: ...", "Question autonome : ...", "Frage: ...").
var rewriteLabelRE = regexp.MustCompile(`(?i)^\s*(?:\*\*)?(?:(?:the\s+)?(?:standalone|rewritten|reformulated|rephrased)\s+(?:question|input|text|statement)|standalone|rewritten|rewrite|question|question\s+autonome|reformulation|frage|umformulierte\s+frage|eigenständige\s+frage)(?:\*\*)?\s*[:：]\s*(?:\*\*)?\s*`)

// cleanRewrite strips reasoning, labels and fences; it returns input itself
// when unchanged (no second retrieval), or "" when there is none.
func cleanRewrite(answer, input string) string {
	s := spoken.StripThinking(answer)
	var line string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "```") {
			continue
		}
		line = l
		break
	}
	line = rewriteLabelRE.ReplaceAllString(line, "")
	line = strings.TrimSpace(strings.Trim(line, "\"'“”«»„`*"))
	if line == "" {
		return ""
	}
	if wordKey(line) == wordKey(input) {
		return input
	}
	return line
}

// wordKey lowercases a text's words, one space apart: equal keys differ in
// case, punctuation and spacing only.
func wordKey(s string) string {
	toks := tokenize(s)
	words := make([]string, len(toks))
	for i, t := range toks {
		words[i] = t.lower
	}
	return strings.Join(words, " ")
}
