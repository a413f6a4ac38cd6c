package speakable

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine/answer"
	"github.com/nadine-robot/nadine/spoken"
)

// A reply's form shows in its lines before they are joined into sentences:
// a section marker ("=== CONTEXT ===", "<<KNOWLEDGE>>", "[BEGIN MEMORY]",
// "## Kontext"), a line in capitals ("FIN DES DONNÉES"), a tag alone on its
// line ("<context>", "</answer>"), a record of fields ("Name: Jonas",
// "Stimmung: fröhlich"). None is said, whatever its words; the words of a
// reply in such a form (a "reply:" field, a tag's content) are.

var (
	// markerRE is a label framed by decoration: on both sides, or after a
	// Markdown heading's marks. Its label has no sentence's end.
	markerRE = regexp.MustCompile(`^([=#~*_<>\[\]【】《》|/\\+-]+)\s*([^=#~*<>\[\]【】《》|.!?。！？]{1,40}?)\s*([=#~*_<>\[\]【】《》|/\\+:：-]*)$`)
	// tagLineRE is a line that is only an XML-ish tag ("<context>",
	// "</response>", "<tool_call>").
	tagLineRE = regexp.MustCompile(`^</?[\p{L}_][\p{L}\p{N}_.:-]{0,30}(?:\s[^<>]{0,80})?/?>$`)
	// tagPairRE opens an XML-ish tag, with attributes or not ("<antwort>",
	// "<div class=\"reply\">").
	tagPairRE = regexp.MustCompile(`<([\p{L}_][\p{L}\p{N}_-]{0,30})(?:\s[^<>]{0,80})?>`)
	// recordRE is a field of a record: a label of one to three words (or
	// up to six ideographs), a colon, and its value; a list's bullet or a
	// heading's marks before it.
	// Its decoration is any sign but a letter or a digit of any script:
	// RE2's \W is ASCII, and took "行动" of "行动输入：" for decoration.
	recordRE = regexp.MustCompile(`^(?:[-*•+#>]+\s*)?[^\p{L}\p{N}_]{0,2}([\p{L}][\p{L}\p{N}_'-]*(?:[ \t][\p{L}\p{N}_'-]+){0,2}|\p{Han}{1,6})[^\p{L}\p{N}_]{0,2}[ \t]*[:：]\s*(.*)$`)
	// replyFieldRE names the field that holds the reply itself, or the
	// speaker whose line it is.
	replyFieldRE = regexp.MustCompile(`(?i)^(?:reply|response|answer|final[ _]answer|` + answer.InputLabels + `|say|speech|output|text|réponse|reponse|réponse finale|antwort|endgültige antwort|回复|回答|答复|最终答案|` + spoken.SpeakerNames + `)$`)
	// closingRE is the label of a marker that closes a section.
	closingRE = regexp.MustCompile(`(?i)^(?:end|fin|ende|close|stop)\b|^/|^结束|^完`)
)

// markdownForms writes Markdown's other forms as the ones the readers know:
// a quoted line is the line it quotes, a title underlined ("About
// me\n========") is a heading, a definition ("Name\n: Nadine") is a field;
// a task list ("- [x] smile") goes.
// A line over a dash rule is a heading only when it ends no sentence
// ("Hello!\n---\nSent from …" keeps its greeting).
func markdownForms(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, line := range lines {
		// A quoted line is read as the line it quotes ("> | 中文 | 会 |").
		line = quotedLineRE.ReplaceAllString(line, "")
		l := strings.TrimSpace(line)
		if m := taskBoxRE.FindStringIndex(line); m != nil {
			// A task list is a form: its boxes say what is done and what
			// is not, which its items said in a row would misstate
			// ("- [ ] cuisiner" among her talents). Its items go, with
			// their lead-in; an item that is a sentence of its own is read.
			item := strings.TrimSpace(line[m[1]:])
			if t := strings.TrimRight(item, "*_ "); endsSentence(t) || strings.HasSuffix(t, "…") {
				out = append(out, item)
				continue
			}
			if n := len(out); n > 0 && (strings.HasSuffix(strings.TrimSpace(out[n-1]), ":") || strings.HasSuffix(strings.TrimSpace(out[n-1]), "：")) {
				out = out[:n-1]
			}
			continue
		}
		if l == "" || len(out) == 0 || strings.TrimSpace(out[len(out)-1]) == "" {
			out = append(out, line)
			continue
		}
		prev := strings.TrimSpace(out[len(out)-1])
		switch {
		case setextRE.MatchString(l) && (l[0] == '=' || !strings.HasSuffix(prev, ".") && !strings.HasSuffix(prev, "!") && !strings.HasSuffix(prev, "。") && !strings.HasSuffix(prev, "！")) && !bulletLineRE.MatchString(prev):
			out[len(out)-1] = "# " + prev
		case strings.HasPrefix(l, ": ") && !strings.ContainsAny(prev, ":：") && len(strings.Fields(prev)) <= 4:
			out[len(out)-1] = prev + ": " + strings.TrimSpace(l[2:])
		default:
			out = append(out, line)
		}
	}
	return out
}

var (
	// setextRE underlines a title: a line of "=" or of three "-" or more.
	setextRE = regexp.MustCompile(`^(?:={2,}|-{3,})$`)
	// taskBoxRE is a task list's box after its bullet ("- [x] ", "* [ ] ").
	taskBoxRE = regexp.MustCompile(`^\s*[-*+]\s+\[[ xX✓✔]\]`)
	// quotedLineRE is a Markdown quote's marker at a line's start.
	quotedLineRE = regexp.MustCompile(`^\s*(?:>\s?)+`)
	// bulletLineRE is a list's item.
	bulletLineRE = regexp.MustCompile(`^(?:[-*+•]|\d{1,2}[.)])\s`)
)

// withoutStructure removes the lines that are a reply's form: markers and
// the sections they enclose, capital lines, tags alone on a line, records'
// fields (a reply field keeps its value). JSON stays: it stops a stream,
// whose reader then takes the reply from it.
func withoutStructure(text string) string {
	if !strings.Contains(text, "\n") {
		if isMarker(strings.TrimSpace(text)) != "" {
			return ""
		}
		return unwrapTags(text)
	}
	lines := markdownForms(strings.Split(text, "\n"))
	keep := make([]bool, len(lines))
	for i := range lines {
		keep[i] = true
	}
	open, openLabel := -1, ""
	for i, line := range lines {
		l := strings.TrimSpace(line)
		if l == "" {
			continue
		}
		label := isMarker(l)
		if label == "" {
			continue
		}
		keep[i] = false
		switch {
		case tagLineRE.MatchString(l):
			keep[i] = true // read with its pair (unwrapTags)
		case open >= 0 && (closingRE.MatchString(label) || strings.EqualFold(label, openLabel)):
			// A section copied whole: its content is the prompt's data.
			for j := open + 1; j < i; j++ {
				keep[j] = false
			}
			open = -1
		default:
			open, openLabel = i, label
		}
	}
	dropRecords(lines, keep)
	dropTables(lines, keep)
	dropSeparatedTables(lines, keep)
	var out []string
	for i, line := range lines {
		if keep[i] {
			out = append(out, line)
		}
	}
	var rest []string
	for _, line := range strings.Split(unwrapTags(strings.Join(out, "\n")), "\n") {
		if !tagLineRE.MatchString(strings.TrimSpace(line)) {
			rest = append(rest, line) // a tag without its pair goes alone
		}
	}
	return strings.Join(rest, "\n")
}

// isMarker returns the label of a line that is a section marker, a line in
// capitals, or a tag alone, and "" for any other line.
func isMarker(l string) string {
	if l == "" {
		return ""
	}
	if tagLineRE.MatchString(l) {
		return strings.Trim(l, "<>/ ")
	}
	if strings.HasPrefix(l, "#") && !strings.ContainsAny(l, ":：") {
		// A Markdown heading's title may ask or exclaim ("## Qui suis-je ?",
		// "### Über mich!"): a title still, not a sentence. With a colon it
		// is a label and its words ("### Assistant: Gern geschehen!").
		l = strings.TrimRight(l, " ?!？！")
	}
	if m := markerRE.FindStringSubmatch(l); m != nil {
		lead, label, tail := m[1], strings.TrimSpace(m[2]), m[3]
		heading := strings.HasPrefix(lead, "#")
		bullet := strings.Trim(lead, "-*+") == "" && len(lead) <= 2 && tail == ""
		if label != "" && !bullet && (heading || tail != "") && shortLabel(label) {
			return label
		}
	}
	if capsLine(l) {
		return strings.TrimSpace(parenRE.ReplaceAllString(l, ""))
	}
	return ""
}

// parenRE is a parenthesized note after a heading ("(data, not
// instructions)").
var parenRE = regexp.MustCompile(`\s*\([^()]*\)`)

// capsLine reports a line in capitals, as headings and delimiters are
// written: two words or six letters at least, no sentence's end.
func capsLine(l string) bool {
	l = strings.TrimRight(strings.TrimSpace(parenRE.ReplaceAllString(l, "")), ":：")
	if l == "" || strings.ContainsAny(l, ".!?。！？,") {
		return false
	}
	letters, wordsN := 0, 0
	inWord := false
	for _, r := range l {
		switch {
		case unicode.IsLetter(r):
			if !unicode.IsUpper(r) {
				return false
			}
			letters++
			if !inWord {
				wordsN++
				inWord = true
			}
		case r == '\'' || r == '-' || r == '_':
		default:
			inWord = false
		}
	}
	return letters >= 6 || (wordsN >= 2 && letters >= 4)
}

// shortLabel reports a label short enough to be a title: six words, or
// twelve ideographs.
func shortLabel(s string) bool {
	if utf8.RuneCountInString(s) > 40 {
		return false
	}
	n := 0
	for _, w := range strings.Fields(s) {
		if r, _ := utf8.DecodeRuneInString(w); isIdeographic(r) {
			n += (utf8.RuneCountInString(w) + 1) / 2
			continue
		}
		n++
	}
	return n <= 6
}

// dropRecords leaves out the fields of records: two or more field lines in
// a row (a label alone on the line before them is the record's heading).
// A reply field keeps its value.
func dropRecords(lines []string, keep []bool) {
	var run []int
	flush := func() {
		if len(run) >= 2 {
			for _, i := range run {
				m := recordRE.FindStringSubmatch(strings.TrimSpace(lines[i]))
				if replyFieldRE.MatchString(strings.TrimSpace(m[1])) && strings.TrimSpace(m[2]) != "" && strings.TrimSpace(m[2]) != "|" {
					lines[i] = m[2]
					continue
				}
				keep[i] = false
			}
		}
		run = run[:0]
	}
	for i, line := range lines {
		l := strings.TrimSpace(line)
		if !keep[i] {
			continue // a marker: the record goes on past it
		}
		if l != "" && recordRE.MatchString(l) {
			run = append(run, i)
			continue
		}
		flush()
	}
	flush()
}

// unwrapTags reads XML-ish tags in pairs: a tag that holds the reply
// ("<response>", "<antwort>") or formats it ("<b>") leaves its words, any
// other ("<context>", "<note>", "<tool_call>") goes with what it holds.
func unwrapTags(text string) string {
	if !strings.Contains(text, "</") {
		return text
	}
	from := 0
	for range 16 {
		loc := tagPairRE.FindStringSubmatchIndex(text[from:])
		if loc == nil {
			break
		}
		open, openEnd := from+loc[0], from+loc[1]
		name := text[from+loc[2] : from+loc[3]]
		closing := "</" + name + ">"
		end := strings.Index(text[openEnd:], closing)
		if end < 0 || (open > 0 && text[open-1] == '<') {
			from = openEnd
			continue
		}
		end += openEnd
		inner := text[openEnd:end]
		switch {
		case strings.EqualFold(name, "a"):
			inner = linkWords(inner) // a link: its words, never its address
		case strings.EqualFold(name, "rt") || strings.EqualFold(name, "rp"):
			inner = "" // a ruby's reading, said by its word already
		case !replyTagRE.MatchString(name) && !formatTagRE.MatchString(name):
			inner = "\n"
		case headingTagRE.MatchString(name) && !strings.ContainsAny(inner, ".!?…。！？"):
			inner = "\n" // a heading's title, as a Markdown heading's line is
		case blockTagRE.MatchString(name):
			inner = " " + inner + " " // "<p>Hello!</p><p>I'm Nadine.</p>": two blocks, not one word
		}
		text = text[:open] + inner + text[end+len(closing):]
		from = open
	}
	return text
}

var (
	// replyTagRE names a tag that holds the reply itself.
	replyTagRE = regexp.MustCompile(`(?i)^(?:reply|response|answer|final[_-]?answer|output|speech|say|spoken|text|message|nadine|assistant|réponse|reponse|antwort|回复|回答|答复)$`)
	// formatTagRE names an HTML tag of text formatting or of a page's
	// sections, whose words are the reply's.
	// blockTagRE is a format tag that sets its words apart as a block.
	// headingTagRE is HTML's heading.
	blockTagRE   = regexp.MustCompile(`(?i)^(?:p|div|li|blockquote|h[1-6]|section|article|aside|header|footer|main|nav|figure|figcaption|address|details|summary|dd|dt|td|th|caption)$`)
	headingTagRE = regexp.MustCompile(`(?i)^h[1-6]$`)
	formatTagRE  = regexp.MustCompile(`(?i)^(?:b|i|u|em|strong|p|span|small|mark|div|font|big|sup|sub|s|del|ins|q|blockquote|h[1-6]|li|ul|ol|center|speak|prosody|emphasis|voice|lang|say-as|phoneme|w|token|section|article|aside|header|footer|main|nav|figure|figcaption|address|details|summary|button|label|dl|dt|dd|td|th|tr|caption|abbr|cite|dfn|time|bdi|bdo|ruby)$`)
)

var (
	// turnRE opens a turn of a chat template, with its role: ChatML,
	// Llama 3, Gemma, Phi and Zephyr, Llama 2's [INST] (the person's) and
	// [/INST] (the answer's), and Alpaca's and Vicuna's headings on a line
	// of their own ("### Instruction:", "### Response:").
	turnRE = regexp.MustCompile(`(?i)<\|im_start\|>[ \t]*(\w+)|<\|start_header_id\|>\s*(\w+)\s*<\|end_header_id\|>|<start_of_turn>[ \t]*(\w+)|<\|(system|user|assistant)\|>|(\[INST\])|(\[/INST\])` +
		`|(?m:^[ \t]*#{2,4}[ \t]*(instruction|input|response|human|user|assistant|system)[ \t]*:?[ \t]*$)`)
	// templateTokenRE is any other token of a chat template.
	templateTokenRE = regexp.MustCompile(`(?i)<\|[^|<>\s]{1,40}\|>|</?s>|<(?:start|end)_of_turn>|<eos>|<bos>|<pad>|<</?SYS>>|\[/?INST\]`)
	// answerRoleRE names the answering role of a template.
	answerRoleRE = regexp.MustCompile(`(?i)^(?:assistant|model|gpt|bot|response)$`)
)

// assistantTurns reads a reply written as a chat template's turns: the
// answering role's turns are the reply (and what precedes the first turn,
// whose opening was in the template), the others' (the system's, the
// person's, a turn the model went on to write) are not; tokens go.
func assistantTurns(text string) string {
	locs := turnRE.FindAllStringSubmatchIndex(text, -1)
	if locs == nil {
		return text
	}
	var out strings.Builder
	out.WriteString(text[:locs[0][0]])
	for i, m := range locs {
		role := ""
		for g := 1; g < len(m)/2; g++ {
			if m[2*g] >= 0 {
				role = text[m[2*g]:m[2*g+1]]
				break
			}
		}
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		if answerRoleRE.MatchString(role) || strings.EqualFold(role, "[/INST]") {
			out.WriteString("\n")
			out.WriteString(text[m[1]:end])
		}
	}
	return strings.TrimSpace(templateTokenRE.ReplaceAllString(out.String(), "\n"))
}

var (
	// fieldSentenceRE is a sentence that is one field of a record: a label
	// of one to three words (the last a letter's) or up to four
	// ideographs, a colon, and a short value ("Stimmung: fröhlich.",
	// "时间：星期一下午。").
	fieldSentenceRE = regexp.MustCompile(`^\W{0,2}(` + fieldLabel + `)[ \t]*[:：][ \t]*((?:[^.!?。！？:：;；]|\d[:：]\d){1,40}?)[ \t]*[.。]?$`)
	// valueSpeakerRE is a pronoun of the speaker or the listener: a value
	// that holds one is a clause said to someone ("Kurz gesagt: Ich heiße
	// Nadine"), not a field's value.
	// csvCellsRE is three cells glued by semicolons, or quoted cells glued
	// by a comma: an exported record's row.
	csvCellsRE = regexp.MustCompile(`(?:^|\s)[^\s;]{1,30};[^\s;]{1,30};[^\s;]|"[^"\n]{1,60}",\s?"`)
	// presentativeRE leads a clause that shows what follows ("Voici mes
	// talents : sourire, saluer"), not a record's label.
	presentativeRE = regexp.MustCompile(`(?i)^(?:voici|voilà|voila|here|hier)\b`)
	valueSpeakerRE = regexp.MustCompile(`(?i)\b(?:i|me|my|you|your|we|je|j|moi|tu|vous|nous|ich|mich|mir|du|dich|dir|wir|sie)\b|[我你您咱们]`)
)

// fieldSentence reports a sentence that is only a record's field, however
// it is labelled: a short label, and a value of two words (or eight
// ideographs) at most that speaks to no one.
func fieldSentence(s string) bool {
	m := fieldSentenceRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil || valueSpeakerRE.MatchString(m[2]) || presentativeRE.MatchString(m[1]) {
		return false
	}
	return valueWithin(strings.TrimSpace(m[2]), 2, 8)
}

// valueWithin reports whether v holds at most words words or, written in
// ideographs, at most ideographs of them.
func valueWithin(v string, words, ideographs int) bool {
	n := 0
	for _, r := range v {
		if isIdeographic(r) {
			n++
		}
	}
	if n > 0 {
		return n <= ideographs
	}
	return len(strings.Fields(v)) <= words
}

// fieldsSentence reports a sentence that is a record's fields written in a
// line ("Sprache: Deutsch, Anrede: Sie.", "Datum: 3. Dezember, Zeit:
// 18:40.", "语言：德语，称呼：您。"): two labelled fields or more, parted by
// commas or semicolons, each short, a field's list value going on after a
// comma. Her clause after a lead-in has no second label.
func fieldsSentence(s string) bool {
	s = strings.TrimRight(strings.TrimSpace(s), ".。")
	if !strings.ContainsAny(s, ":：") {
		return false
	}
	labelled := 0
	for i, part := range fieldPartRE.Split(s, -1) {
		if m := inlineFieldRE.FindStringSubmatch(part); m != nil && !valueSpeakerRE.MatchString(m[1]) && shortValue(m[2]) {
			labelled++
			continue
		}
		if i == 0 || strings.ContainsAny(part, ":：") || !shortValue(part) {
			return false
		}
	}
	return labelled >= 2
}

// shortValue reports a field's value: four words at most, or ten ideographs.
func shortValue(v string) bool {
	v = strings.TrimSpace(v)
	return v != "" && valueWithin(v, 4, 10)
}

// fieldLabel is a record field's label: one to three words or up to four
// ideographs.
const fieldLabel = `(?:[^\P{L}\p{Han}][^\P{L}\p{Han}'-]*[ \t]+){0,2}[^\P{L}\p{Han}][^\P{L}\p{Han}'-]*|\p{Han}{1,4}`

var (
	// fieldPartRE parts a line of fields.
	fieldPartRE = regexp.MustCompile(`[,，;；]\s*`)
	// inlineFieldRE is one field: a label of one to three words or up to four
	// ideographs, a colon, a value (a time's colon has no space after it).
	inlineFieldRE = regexp.MustCompile(`^\W{0,2}(` + fieldLabel + `)[ \t]*[:：][ \t]*(\S.*)$`)
)

// A section the model opened and never closed holds the prompt's data to
// the end of what it wrote: a code fence to the end; a delimiter that opens
// ("BEGIN KNOWLEDGE BASE", "DÉBUT DES DONNÉES", "开始记忆"), a tag of the
// machinery ("<instructions>") and a heading or a label that names a
// section of the prompts ("=== CONTEXT ===", "### Kontext", "Context:",
// "上下文：") to the end or to a blank line, which no data section of the
// prompts holds (fence.Block writes none).

var (
	// openingRE is the label of a marker that opens a delimited section.
	openingRE = regexp.MustCompile(`(?i)^(?:begin(?:ning)?|start|d[ée]but|anfang|beginn)\b|^开始|开始$`)
	// sectionLabelRE is a label that names a section of the prompts,
	// after the word that opens it.
	sectionLabelRE = regexp.MustCompile(`(?i)^(?:(?:begin(?:ning)?|start|d[ée]but|anfang|beginn)\s+(?:of\s+|de\s+|du\s+|des\s+|d'|der\s+|des\s+)?)?(?:` +
		sectionEN + `|` + sectionFR + `|` + sectionDE + `|` + sectionZH + `)(?:开始)?$`)
	// sectionLeadRE is a section's name and its colon at a line's start or
	// after a sentence's end ("Context:", "Contexte :", "ANWEISUNGEN:",
	// "上下文："): what follows is the section's. Names of a general sense
	// (data, information, rules, history) are not among them: a reply
	// says "Fun fact:" and "History:" in its own voice.
	sectionLeadRE = regexp.MustCompile(`(?:^|[.!?。！？][ \t]*)([ \t*_#>]*(?i:context(?:ual information)?|conte[x]te|kontext|memor(?:y|ies)|m[ée]moires?|souvenirs|erinnerungen|ged[äa]chtnis|knowledge(?:\s+base)?|base\s+de\s+connaissances|wissensbasis|instructions|consignes|anweisungen|system\s+prompt|prompt|(?:conversation|chat)\s+history|historique(?:\s+de\s+(?:la\s+)?conversation)?|gespr[äa]chsverlauf|search\s+results|tool\s+results?|r[ée]sultats\s+de\s+recherche|suchergebnisse|user\s+(?:profile|info(?:rmation)?)|profil\s+(?:de\s+l'utilisateur|utilisateur)|benutzerprofil|retrieved\s+(?:context|documents?)|上下文|背景信息|记忆|知识库|指令|系统提示|提示词|对话历史|搜索结果|工具结果|用户信息|个人资料)[ \t*_]*[:：])`)
	// openingWordRE is the word that opens a section in its label
	// ("BEGIN KNOWLEDGE BASE" is closed by "</KNOWLEDGE BASE>").
	openingWordRE = regexp.MustCompile(`(?i)^(?:begin(?:ning)?|start|d[ée]but|anfang|beginn)\s+(?:of\s+|de\s+|du\s+|des\s+|d'|der\s+)?|^开始|开始$|[:：]$`)
	// openTagRE is a tag that opens, at a line's start.
	openTagRE = regexp.MustCompile(`^<([\p{L}_][\p{L}\p{N}_-]{0,30})(?:\s[^<>]{0,80})?>`)
)

// withoutOpenSections cuts the sections opened and never closed, and
// reports whether it cut one. Read before the form's other lines, whose
// closed sections withoutStructure removes.
func withoutOpenSections(text string) (string, bool) {
	cut := false
	if strings.Count(text, "```")%2 == 1 {
		text, cut = text[:strings.LastIndex(text, "```")], true
	}
	lines := strings.Split(text, "\n")
	keep := make([]bool, len(lines))
	for i := range keep {
		keep[i] = true
	}
	paragraph := func(from int) {
		for j := from; j < len(lines) && strings.TrimSpace(lines[j]) != ""; j++ {
			keep[j] = false
		}
		cut = true
	}
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if !keep[i] || l == "" {
			continue
		}
		rest := strings.Join(lines[i+1:], "\n")
		if m := openTagRE.FindStringSubmatch(l); m != nil && machineTag(m[1]) {
			if !strings.Contains(strings.ToLower(l+"\n"+rest), "</"+strings.ToLower(m[1])) {
				paragraph(i)
			}
			continue
		}
		if label := strings.TrimRight(isMarker(l), ":： "); label != "" && !tagLineRE.MatchString(l) {
			if closingRE.MatchString(label) || !sectionLabelRE.MatchString(label) && !openingRE.MatchString(label) {
				continue
			}
			if end := closedAfter(lines[i+1:], label); end >= 0 {
				i += 1 + end // withoutStructure removes the section closed
				continue
			}
			paragraph(i)
			continue
		}
		if m := sectionLeadRE.FindStringSubmatchIndex(lines[i]); m != nil {
			// The section's first sentence is its own; a reply that
			// goes on in the line after it is judged as the reply.
			head, after := strings.TrimSpace(lines[i][:m[2]]), lines[i][m[3]:]
			if end := sentenceEndRE.FindStringIndex(after); end != nil && strings.TrimSpace(after[end[1]:]) != "" && strings.TrimSpace(after[:end[0]]) != "" {
				lines[i], cut = strings.TrimSpace(head+" "+strings.TrimSpace(after[end[1]:])), true
				continue
			}
			if head != "" {
				lines[i] = head
				paragraph(i + 1)
				continue
			}
			paragraph(i)
		}
	}
	var out []string
	for i, line := range lines {
		if keep[i] {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n"), cut
}

// machineTag reports a tag's name that names a section of the prompts or
// the model's machinery ("instructions", "context", "tool_call",
// "system"): a tag of a reply, of formatting, of a template or a stage
// direction ("<smiles>") opens no section.
func machineTag(name string) bool {
	if replyTagRE.MatchString(name) || formatTagRE.MatchString(name) || voidTagRE.MatchString("<"+name+">") || templateTokenRE.MatchString("<"+name+">") {
		return false
	}
	return strings.Contains(name, "_") || sectionLabelRE.MatchString(name) || machineTagRE.MatchString(name)
}

// machineTagRE names the parts of a model's exchange that are no section of
// the prompts.
var machineTagRE = regexp.MustCompile(`(?i)^(?:system|user|human|tool|tools|observation|scratchpad|notes?|metadata|meta|config|variables?)$`)

// closedAfter returns the index among lines of the marker that closes the
// section whose label opened it, or -1.
func closedAfter(lines []string, label string) int {
	for i, line := range lines {
		if l := isMarker(strings.TrimSpace(line)); l != "" && (closingRE.MatchString(l) || strings.EqualFold(l, label) ||
			strings.EqualFold(openingWordRE.ReplaceAllString(l, ""), openingWordRE.ReplaceAllString(label, ""))) {
			return i
		}
	}
	return -1
}

var (
	// tableRuleRE is the line under a table's header ("|---|:--:|").
	// tableRowRE is a table's row: it opens with a pipe and another closes
	// its first cell ("| Language | Can I speak it?"). A stream meets it
	// before the rule under it shows the table, and a "?" in a cell ends
	// its sentence there.
	tableRowRE  = regexp.MustCompile(`^\|[^|\n]+\|`)
	tableRuleRE = regexp.MustCompile(`^\|?[ \t:|-]*-{3,}[ \t:|-]*\|?$`)
	// gridRuleRE is a grid table's border ("+--------+------+").
	gridRuleRE = regexp.MustCompile(`^\+(?:[-=:]{2,}\+)+$`)
	// tabbedRE is a line of cells parted by tabs ("Matin\tMidi\tSoir").
	tabbedRE = regexp.MustCompile(`\S[ ]*\t+[ ]*\S`)
	// simpleRuleRE is the rule of a table whose columns are aligned with
	// spaces, one run of dashes or equals signs per column ("------
	// ------", reST's "====  ====="); alignedRE is a line of such a table.
	simpleRuleRE = regexp.MustCompile(`^[-=]{2,}(?:[ \t]+[-=]{2,})+$`)
	alignedRE    = regexp.MustCompile(`\S {2,}\S`)
	// pipeBetweenRE is a pipe between words of a line that holds two or
	// more: a separator, said as a comma ("Mon | Tue | Wed"); "the |
	// symbol" is said as written.
	pipeBetweenRE = regexp.MustCompile(`([\p{L}\p{N}.)])[ \t]*\|[ \t]*([\p{L}\p{N}(])`)
	// voidTagRE is an HTML tag of the page's layout, written anywhere in
	// a line ("<hr/>", "<br>", "<img src=…>", "</td>"): its signs are the
	// page's, not words.
	voidTagRE = regexp.MustCompile(`(?i)</?(?:br|hr|wbr|img|a|abbr|code|kbd|pre|cite|sup|sub|small|mark|font|center|span|p|b|i|u|em|strong|s|del|ins|q|li|ul|ol|dl|dt|dd|td|tr|th|thead|tbody|table|div|section|article|header|footer|nav|figure|figcaption)\b[^<>]{0,200}/?>`)
)

// dropTables leaves out a table: two or more lines in a row with two cells
// or more, one of them the rule under the header or every one framed by
// pipes. Its cells are a page's layout, not sentences.
func dropTables(lines []string, keep []bool) {
	var run []int
	flush := func() {
		rule, framed, tabbed := false, true, true
		for _, i := range run {
			l := strings.TrimSpace(lines[i])
			rule = rule || tableRuleRE.MatchString(l) || gridRuleRE.MatchString(l) || simpleRuleRE.MatchString(l)
			framed = framed && strings.HasPrefix(l, "|") && strings.HasSuffix(l, "|")
			tabbed = tabbed && tabbedRE.MatchString(l)
		}
		if len(run) >= 2 && (rule || framed || tabbed) {
			for _, i := range run {
				keep[i] = false
			}
		}
		run = run[:0]
	}
	for i, line := range lines {
		// A table's line: cells parted by pipes or tabs, or a grid's
		// border.
		if l := strings.TrimSpace(line); strings.Count(line, "|") >= 2 || gridRuleRE.MatchString(l) || tabbedRE.MatchString(l) || simpleRuleRE.MatchString(l) || alignedRE.MatchString(l) && !strings.ContainsAny(l[len(l)-1:], ".!?") {
			run = append(run, i)
			continue
		}
		flush()
	}
	flush()
}

// cellSepRE is what parts a table's cells in a line of text: a
// semicolon, a slash or a pipe.
var cellSepRE = regexp.MustCompile(`\s*[;/|]\s*`)

// csvWidth sets a run of comma-separated rows apart from other tables.
const csvWidth = 100

// csvRowRE is a row of comma-separated values, no space after a comma;
// csvSepRE parts it.
var (
	csvRowRE = regexp.MustCompile(`^[^\s,]+(?:\s[^\s,]+)*(?:,[^\s,]+(?:\s[^\s,]+)*){1,12}$`)
	csvSepRE = regexp.MustCompile(`,`)
)

// dropSeparatedTables leaves out a table written with a prose sign between
// its cells ("Langue ; Niveau", "10h / Visite / Hall"): three lines or more
// in a row, each parted into the same number of short cells, none ending a
// sentence; two rows of comma-separated values are one. Read by its shape,
// not by the sign.
func dropSeparatedTables(lines []string, keep []bool) {
	cells := func(l string) int {
		l = strings.TrimSpace(l)
		if l == "" || strings.ContainsAny(l[len(l)-1:], ".!?") || strings.HasSuffix(l, "…") {
			return 0
		}
		sep, csv := cellSepRE, csvRowRE.MatchString(l)
		if csv {
			sep = csvSepRE // a spreadsheet's row: commas with no space after them
		}
		parts := sep.Split(l, -1)
		if len(parts) < 2 {
			return 0
		}
		for _, p := range parts {
			if n := len(strings.Fields(p)); n == 0 || n > 4 {
				return 0
			}
		}
		if csv {
			return csvWidth + len(parts)
		}
		return len(parts)
	}
	start, width := 0, 0
	flush := func(end int) {
		if width > csvWidth && end-start >= 2 || width > 0 && end-start >= 3 {
			for i := start; i < end; i++ {
				keep[i] = false
			}
		}
	}
	for i, line := range lines {
		n := cells(line)
		if n > 0 && n == width {
			continue
		}
		flush(i)
		start, width = i, n
	}
	flush(len(lines))
}

// speechMarkupRE is a tag of the markup of speech (SSML: "<speak>",
// "<prosody rate=…>", "<break time=…/>"): the model wrote how to say its
// words, which are speech; the tags are the synthesizer's, never said.
var speechMarkupRE = regexp.MustCompile(`(?i)</?(?:speak|prosody|break|emphasis|say-as|voice|lang|phoneme|mark|audio|amazon:[a-z-]+|mstts:[a-z-]+|par|seq|media|express-as|bookmark|sub)\b[^<>]{0,200}>`)

// withoutSpeechMarkup removes the tags of speech markup, keeping their words.
func withoutSpeechMarkup(text string) string {
	if !strings.Contains(text, "<") {
		return text
	}
	return speechMarkupRE.ReplaceAllString(text, " ")
}

// codeBlockRE is a fenced code block with the line that leads into it
// when that line ends with a colon ("Here is how:\n```python …```"): the
// lead-in announces the code and says nothing without it.
var codeBlockRE = regexp.MustCompile("(?s)(?:(?:^|\n)[^\n]*[:：][ \t]*\n[ \t]*)?```[^\n]*\n.*?```")

// textFenceRE is a closed fence that says it holds text; a fence with
// no language may hold anything, and is code as before.
var textFenceRE = regexp.MustCompile("(?s)```(?:text|plaintext|txt|markdown|md)[ \t]*\n(.*?)\n?```")

// codeSignRE is a sign prose does not hold and code does: braces, angle
// brackets, an assignment, a statement's end, a call.
var codeSignRE = regexp.MustCompile(`[{}<>;=$\\]|\b[A-Za-z_][A-Za-z0-9_.]*\([^)\n]*\)`)

// withoutCodeBlocks removes the closed code blocks of a reply that says
// something besides, with the line that leads into each; a reply put
// whole in a fence of text is unfenced before.
func withoutCodeBlocks(text string) string {
	if strings.Count(text, "```") < 2 || proseFenceRE.MatchString(text) {
		return text
	}
	// A fence of text holding prose, with more said outside it, is part
	// of the reply ("```text\nI'm Nadine.\n```\nAnd you?"): unfenced.
	text = textFenceRE.ReplaceAllStringFunc(text, func(m string) string {
		body := textFenceRE.FindStringSubmatch(m)[1]
		if codeSignRE.MatchString(body) {
			return m
		}
		return "\n" + body + "\n"
	})
	if strings.Count(text, "```") < 2 {
		return text
	}
	if out := codeBlockRE.ReplaceAllString(text, "\n"); strings.TrimSpace(out) != "" {
		return out
	}
	return text // nothing but code: the reader says so
}

// markupRoles reads markup signs by their role in the line: pipes between
// words separate them (commas), a layout tag goes.
func markupRoles(s string) string {
	if strings.Count(s, "|") >= 2 {
		s = pipeBetweenRE.ReplaceAllString(s, "$1, $2")
	}
	if strings.Contains(s, "<") {
		s = voidTagRE.ReplaceAllString(withoutSpeechMarkup(s), " ")
	}
	return s
}
