package speakable

import (
	"regexp"
	"strings"
)

// A rule about the reply's form ("Say at most two sentences, no lists, no
// markdown", "Sagen Sie höchstens zwei Sätze, ohne Listen und ohne
// Markdown", "最多说两句话，不要网址") is the prompt's, in whatever words or
// language a model gives it back: a visitor is never told how many
// sentences she may say or which text formats she may not write. It is
// read from structure: a limit on a count of sentences, words or lines, or
// a text format forbidden (a negation just before its name) — a format no
// spoken reply names (Markdown, JSON, emojis, addresses, code blocks,
// bullets), or two of those a speaker might (lists, links, code, headings).
// docs/speech.md, "The issue's own list".

// countLimitRE limits a count of sentences, words or lines: "at most two
// sentences", "deux phrases au plus", "höchstens zwei Sätze", "最多两句话".
// Read folded (foldMarks).
var countLimitRE = regexp.MustCompile(`(?i)\b(?:at\s+most|no\s+more\s+than|not\s+more\s+than|a\s+maximum\s+of|maximum(?:\s+of)?|au\s+plus|au\s+maximum|tout\s+au\s+plus|pas\s+plus\s+de|maximum|hochstens|maximal|nicht\s+mehr\s+als)\s+(?:one|two|three|four|five|une?|deux|trois|quatre|cinq|eine?n?|zwei|drei|vier|funf|\d{1,3})\s+(?:(?:short|brief|courtes?|breves?|kurzen?|kurze)\s+)?(?:sentences?|words?|lines?|phrases?|mots|lignes?|satzen?|satze|satz|wortern?|worte|zeilen?)\b` +
	`|\b(?:one|two|three|four|five|une?|deux|trois|quatre|cinq|zwei|drei|vier|funf|\d{1,3})\s+(?:(?:short|courtes?|kurze)\s+)?(?:sentences?|phrases?|satze)\s+(?:at\s+most|max(?:imum)?|au\s+plus|au\s+maximum|hochstens|maximal)\b` +
	`|(?:最多|至多|不超过|不要超过|不能超过|限制在|控制在)(?:说)?(?:一|两|二|三|四|五|\d{1,3})(?:个|句)?(?:句话|句|个字|个词|行|字)` +
	`|(?:一|两|二|三|四|五|\d{1,3})(?:句话|句|个字|行)(?:以内|之内|为限)`)

// formatBanRE is a negation just before a text format's name; its first
// group holds a format no spoken reply names, its second one a speaker
// might. Read folded (foldMarks).
var formatBanRE = regexp.MustCompile(`(?i)(?:\b(?:no|without|never|avoid|don't\s+use|do\s+not\s+use|never\s+(?:use|put|write|include)|sans|pas\s+de|jamais\s+de|aucune?|ni|evitez|ohne|keine?n?|nie|niemals|vermeiden\s+sie|vermeide|verwenden\s+sie\s+keine?n?)\s+(?:(?:any|a|an|des|d'|de|une?|irgendwelche|eine?n?)\s+)?|(?:不要|不用|不使用|别用|禁止|避免|不能有|不要用|不含|不加|不带)(?:任何)?)` +
	`(?:(markdown|json|emojis?|emoticons?|urls?|web\s+address(?:es)?|adresses?\s+web|webadressen?|code\s+blocks?|blocs?\s+de\s+code|codeblocke?|bullet\s+points?|puces|aufzahlungszeichen|formatting|mise\s+en\s+forme|formatierung|表情符号|表情|网址|网页链接|代码块|项目符号|格式)` +
	`|(lists|links|code|headings|listes|liens|titres|listen|links|aufzahlungen|uberschriften|列表|链接|代码|标题))`)

// addressRuleRE is a rule about the pronoun the reply addresses the person
// with: an order to use or address with it, first in its clause, and the
// pronoun named as a word (in quotation marks, or after "the formal", "le",
// "das"): "En français, utilisez toujours le « vous »", "Sprich die Person
// mit „Sie“ an", "请始终用“您”称呼对方", "Address the person formally with
// "vous"". A visitor hears "Vous pouvez me tutoyer", never the rule.
// Read folded (foldMarks).
var addressRuleRE = regexp.MustCompile(`(?i)(?:^|[,.;:!?]\s*)(?:(?:always|toujours|immer|stets|please|bitte|s'il vous plait)\s+)?` +
	`(?:use|address|utilisez|utilise|employez|emploie|vouvoyez|tutoyez|verwende|verwenden\s+sie|benutze|benutzen\s+sie|sprich|sprechen\s+sie|rede|reden\s+sie)\b[^.!?]{0,40}?` +
	`(?:["“”«»„'‘]\s*(?:vous|tu|sie|du|you)\s*["“”«»„'‘]|\b(?:the\s+formal|the\s+informal|le|das|formally\s+with|formellement\s+avec)\s+(?:vous|tu|sie|du|you)\b)` +
	`|(?:用|使用|以)\s*["“”「」'‘’]\s*(?:您|你)\s*["“”「」'‘’]\s*(?:来)?(?:称呼|称|对待)`)

// formatRuleOf reports whether a sentence states a rule about the reply's
// form: a count limited, formats forbidden, or the pronoun of address.
func formatRuleOf(s string) bool {
	f := foldMarks(s)
	if countLimitRE.MatchString(f) || addressRuleRE.MatchString(f) || plainTextRE.MatchString(f) {
		return true
	}
	strong, weak := 0, 0
	for _, m := range formatBanRE.FindAllStringSubmatch(f, -1) {
		if m[1] != "" {
			strong++
		} else {
			weak++
		}
	}
	if strong > 0 || weak >= 2 {
		return true
	}
	// A list of formats after one negation: "no lists, markdown or emojis".
	return weak == 1 && strings.Count(f, ",") >= 1 && formatNamesRE.MatchString(f[formatBanRE.FindStringIndex(f)[1]:])
}

// plainTextRE names the reply's text as plain ("in plain text", "texte
// brut", "in reinem Text", "纯文本"): the form a prompt asks for, which a
// visitor never hears named. Read folded (foldMarks).
var plainTextRE = regexp.MustCompile(`(?i)\bplain[\s-]+text\b|\btexte\s+brut\b|\breine[mnr]?\s+text\b|\bklartext-?(?:fassung|antwort|version)|纯文本`)

// formatNamesRE is a text format named after a first one forbidden.
var formatNamesRE = regexp.MustCompile(`(?i)\b(?:markdown|json|emojis?|urls?|lists|links|code|headings|listes|liens|listen|aufzahlungen)\b|表情|网址|列表|链接|代码`)

// withoutRuleAsides removes the asides in parentheses and the lead-in
// before a colon that state a rule about the reply's form
// ("（回答控制在两句话以内）今天天气晴朗。", "Hier die Antwort ohne Emojis: Es
// freut mich, dass du da bist."): what they frame is judged alone.
func withoutRuleAsides(s string) string {
	out := parentheticalRE.ReplaceAllStringFunc(s, func(m string) string {
		if formatRuleOf(m) {
			return asideGone
		}
		return m
	})
	out = strings.TrimSpace(strings.ReplaceAll(spaceBeforeStopRE.ReplaceAllString(out, "$1"), asideGone, " "))
	if m := leadRE.FindStringSubmatch(out); m != nil && formatRuleOf(m[1]) {
		out = capitalize(strings.TrimSpace(out[len(m[0]):]))
	}
	return out
}
