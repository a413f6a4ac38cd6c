package speakable

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/nadine-robot/nadine/answer"
)

// A section marker is not always a line of its own: a model writes "---
// end of memories --- Nice to see you again" or "上下文开始：今天…", and
// translates the prompt's END KNOWLEDGE into "Fin de la base de
// connaissances". What makes it a marker is its structure: a boundary
// (start, end) of a section the prompts hold (context, memories,
// knowledge, data, instructions), and nothing else in its clause.

// sectionNames are the sections the prompts fence, in four languages.
const (
	sectionEN = `(?:the\s+)?(?:(?:conversation\s+|chat\s+)?history|context(?:ual information)?|memor(?:y|ies)|knowledge(?:\s+base)?|kb|data|documents?|search results|tool results?|observations?|instructions|rules|system(?:\s+(?:prompt|message))?|prompt|persona|profile|user (?:profile|info(?:rmation)?)|retrieved (?:context|documents?)|information)`
	sectionFR = `(?:l'|la\s+|le\s+|les\s+)?(?:contexte|m[ée]moires?|souvenirs|base\s+de\s+connaissances|connaissances|donn[ée]es|documents?|r[ée]sultats(?:\s+de\s+(?:recherche|l'outil))?|instructions|consignes|r[èe]gles|historique(?:\s+de\s+(?:la\s+)?conversation)?|invite|prompt|profil|informations)`
	sectionDE = `(?:Kontext(?:es|s)?|Erinnerungen|Ged[äa]chtnis(?:ses)?|Wissensbasis|Wissens|Daten|Dokumente?s?|(?:Such)?ergebnisse|Anweisungen|Regeln|Verlauf(?:s|es)?|Gespr[äa]chsverlauf(?:s|es)?|Systemnachricht|Prompts?|Profils?|Informationen)`
	sectionZH = `(?:上下文|背景信息|背景|记忆|知识库|知识|数据|资料|文档|搜索结果|工具结果|指令|说明|规则|系统提示|提示词|对话历史|历史记录|个人资料|用户信息)`
)

// inlineMarkerRE is a section's boundary named in words: "end of
// memories", "start of the knowledge base", "fin des souvenirs", "début du
// contexte", "Ende des Kontexts", "Anfang der Erinnerungen", "知识库结束",
// "记忆开始", "结束记忆".
// A heading drops its articles ("DÉBUT BASE DE CONNAISSANCES", "ENDE
// WISSENSBASIS", "开始 知识库"), as the prompt's BEGIN KNOWLEDGE BASE does,
// and a delimiter's note in parentheses follows it (markerNoteRE).
// The packet names a section as hers ("END YOUR KNOWLEDGE"): a possessive
// may stand before the section's name.
var inlineMarkerRE = regexp.MustCompile(`(?i)\b(?:(?:start|begin(?:ning)?|end)\s+(?:of\s+)?(?:(?:your|my)\s+)?` + sectionEN +
	`|(?:d[ée]but|fin)\s+(?:de\s+|du\s+|des\s+|d')?(?:(?:tes|ta|ton|vos|votre|mes|ma|mon)\s+)?` + sectionFR +
	`|(?:Anfang|Beginn|Start|Ende)\s+(?:(?:des|der|von)\s+)?(?:(?:dein|mein|ihr)(?:e|es|er|en|em)?\s+)?` + sectionDE + `)\b` +
	`|(?:你的|我的)?` + sectionZH + `(?:部分)?[ \t]*(?:开始|结束|结尾)|(?:开始|结束)[ \t]*(?:你的|我的)?` + sectionZH)

// markerNoteRE is a note in parentheses right after a section's marker:
// the delimiter's "(data, not instructions)", in any words.
var markerNoteRE = regexp.MustCompile(`^[ \t]*[(（][^()（）\n]{1,60}[)）]`)

// markerWords are substrings an inline marker holds one of.
var markerWords = []string{"start", "begin", "end", "début", "debut", "fin", "anfang", "beginn", "开始", "结束", "结尾"}

// withoutInlineMarker returns a sentence without a section marker written
// at its start or its end: the marker stands apart from the sentence by
// decoration or punctuation ("--- end of memories --- Nice …", "Start of
// knowledge: MIRALab …", "Welcome back! *** END OF MEMORIES ***"), or is
// the whole sentence. Words of a section said in a sentence ("The end of
// the tour is by the window") stay.
func withoutInlineMarker(s string) string {
	l := strings.ToLower(s)
	hit := false
	for _, w := range markerWords {
		if strings.Contains(l, w) {
			hit = true
			break
		}
	}
	if !hit {
		return s
	}
	for range 4 {
		loc := inlineMarkerRE.FindStringIndex(s)
		if loc == nil {
			return s
		}
		before, after := s[:loc[0]], s[loc[1]:]
		if m := markerNoteRE.FindString(after); m != "" {
			after = " " + after[len(m):]
		}
		lead, trail := decoration(before, true), decoration(after, false)
		rest := strings.TrimSpace(after[len(trail):])
		prior := strings.TrimSpace(before[:len(before)-len(lead)])
		switch {
		case prior == "" && (rest == "" || strings.TrimSpace(trail) != "" || strings.TrimSpace(lead) != "" || trail != "" && headingForm(s[loc[0]:loc[1]])):
			// At the start, set apart: what follows is the reply.
			s = capitalize(rest)
		case rest == "" && (prior == "" || strings.TrimSpace(lead) != "" || endsSentence(prior)):
			// At the end, after the reply.
			s = prior
		default:
			return s
		}
	}
	return s
}

// headingForm reports a marker written as a heading, not as words of a
// sentence: in capitals ("DÉBUT BASE DE CONNAISSANCES"), or in a script
// without capitals, then set apart by a space, which Chinese prose never
// puts ("开始 知识库 我来自日内瓦").
func headingForm(marker string) bool {
	upper := 0
	for _, r := range marker {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsUpper(r) {
			upper++
		}
	}
	return upper >= 4 || upper == 0
}

// decoration returns the signs and spaces that touch a marker: the end of
// before (lead) or the start of after. Letters, digits and ideographs are
// words, not decoration; a sentence's end before a marker is the sentence's.
func decoration(s string, lead bool) string {
	rs := []rune(s)
	isDeco := func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !(lead && strings.ContainsRune(".!?。！？", r))
	}
	if lead {
		i := len(rs)
		for i > 0 && isDeco(rs[i-1]) {
			i--
		}
		return string(rs[i:])
	}
	i := 0
	for i < len(rs) && isDeco(rs[i]) {
		i++
	}
	return string(rs[:i])
}

// endsSentence reports whether s ends with a sentence's end.
func endsSentence(s string) bool {
	return strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") ||
		strings.HasSuffix(s, "。") || strings.HasSuffix(s, "！") || strings.HasSuffix(s, "？")
}

// notWord is a rune of decoration, not of a word.
func notWord(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// endOfTurnRE is a chat template's end of turn after the reply: the reply
// ends there ("Ravie de vous revoir.<|endoftext|>").
// Harmony ends its final message with <|return|>.
var endOfTurnRE = regexp.MustCompile(`(?i)(?:\s*(?:<\|(?:endoftext|end|eot_id|im_end|eos|return|end_of_sentence)\|>|</s>|<end_of_turn>|<eos>))+\s*$`)

// wideTokenRE is a chat template's token written with full-width bars, as
// DeepSeek's are ("<｜Assistant｜>", "<｜end▁of▁sentence｜>").
var wideTokenRE = regexp.MustCompile(`<｜([^｜<>\n]{1,40})｜>`)

// narrowTokens writes such tokens with ASCII bars and underscores, so that
// the readers of every other template's tokens read them.
func narrowTokens(s string) string {
	if !strings.Contains(s, "｜") {
		return s
	}
	return wideTokenRE.ReplaceAllStringFunc(s, func(m string) string {
		inner := strings.ReplaceAll(wideTokenRE.FindStringSubmatch(m)[1], "▁", "_")
		return "<|" + inner + "|>"
	})
}

// thoughtInLineRE is a reasoning label at a line's start or after a
// sentence's end within it ("Bien sûr ! Pensée : …", "Gedanke: …").
var thoughtInLineRE = regexp.MustCompile(`(?i)(?:^|[.!?。！？][ \t]*)([ \t>*_]{0,3}(?:` + answer.ReasoningNames + `)[ \t*_]{0,3}[:：])`)

// sentenceEndRE ends a sentence within a line.
var sentenceEndRE = regexp.MustCompile(`[.!?]+(?:[ \t]+|$)|[。！？]+[ \t]*`)

// thoughtsInProse cuts a labelled thought written inside the reply's last
// line to its one sentence when the line goes on after it ("Gedanke: Der
// Nutzer fragt nach meinem Alter. Ich wurde 2013 vorgestellt."): what
// follows is the reply, judged sentence by sentence. A thought with lines
// of reply below it is its line's whole, the reader's (answer.Preamble),
// as before.
func thoughtsInProse(text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if strings.TrimSpace(strings.Join(lines[i+1:], "")) != "" {
			continue // the reply goes on below: the line is the thought's
		}
		for range 4 {
			m := thoughtInLineRE.FindStringSubmatchIndex(line)
			if m == nil {
				break
			}
			end := sentenceEndRE.FindStringIndex(line[m[3]:])
			if end == nil || strings.TrimSpace(line[m[3]+end[1]:]) == "" {
				break
			}
			line = line[:m[2]] + line[m[3]+end[1]:]
		}
		lines[i] = line
	}
	return strings.Join(lines, "\n")
}
