package speakable

import (
	"regexp"
	"strings"
)

// Talk about the answer. A model that repeats its instructions in another
// language than theirs ("Répondez dans la langue du dernier message"), or
// tells how it answers ("Here is my answer in the requested format:",
// "(I kept it to two sentences)"), speaks of the making of the answer,
// which word runs of the prompt cannot catch once translated. Such talk
// is told by what it is about: the concepts of answering (the answer, its
// sentences, its language, the message, tools, formats, instructions,
// speaking aloud, mentioning), with an obligation or a limit ("never",
// "at most two"), or one concept no visitor's conversation needs (JSON,
// Markdown, the prompt, the instructions).

var (
	conceptAnswer   = lexicon{prefixes: []string{"answer", "reply", "replie", "respond", "response", "repond", "reponse", "antwort", "beantwort"}, cjk: []string{"回答", "回复", "答复"}}
	conceptSentence = lexicon{prefixes: []string{"sentence", "phrase", "satz", "satze"}, cjk: []string{"句话", "句子"}}
	conceptLanguage = lexicon{prefixes: []string{"language", "langue", "sprache"}, cjk: []string{"语言"}}
	conceptMessage  = lexicon{prefixes: []string{"message", "input", "nachricht", "eingabe"}, cjk: []string{"消息", "输入", "留言"}}
	conceptTool     = lexicon{prefixes: []string{"tool", "outil", "werkzeug"}, cjk: []string{"工具"}}
	conceptList     = lexicon{prefixes: []string{"list", "bullet", "puce", "liste", "aufzahlung"}, cjk: []string{"列表", "项目符号"}}
	conceptAloud    = lexicon{prefixes: []string{"aloud", "vorgelesen", "vorlesen"}, phrases: []string{"read out", "voix haute", "a voix haute"}, cjk: []string{"朗读", "大声读"}}
	conceptMention  = lexicon{prefixes: []string{"mention", "erwahn", "say", "dire", "sagen"}, phrases: []string{"name the", "nennen"}, cjk: []string{"提到", "提及", "说出"}}
	conceptImage    = lexicon{prefixes: []string{"image", "photo", "picture", "bild", "foto"}, cjk: []string{"图片", "照片", "图像"}}
	conceptRule     = lexicon{prefixes: []string{"rule", "regle", "regel", "requested", "demande", "gewunscht", "verlangt"}, cjk: []string{"规则", "要求"}}

	// strong are the concepts a visitor's conversation does not need: the
	// answer's format and the model's instructions.
	conceptStrong = lexicon{prefixes: []string{"json", "markdown", "codeblock", "schema", "emoji", "instruct", "prompt", "consigne", "anweisung", "systemprompt", "yaml"},
		phrases: []string{"code block", "bloc de code", "bloc code", "action input", "final answer", "causing person", "emotion intensity"},
		cjk:     []string{"格式", "代码块", "表情符号", "指令", "提示词", "系统提示"}}

	obligation = lexicon{prefixes: []string{"never", "always", "must", "should", "avoid", "jamais", "toujours", "dois", "doit", "devez", "evite", "nie", "niemals", "immer", "muss", "sollst", "soll", "halte", "keep"},
		phrases: []string{"do not", "don t", "il faut", "ne pas"}, cjk: []string{"不要", "绝不", "必须", "总是", "永远", "始终", "控制在", "不得"}}
	limit = lexicon{prefixes: []string{"maximum", "hochstens", "max"}, phrases: []string{"at most", "no more than", "au plus", "pas plus de", "nicht mehr als"}, cjk: []string{"以内", "最多", "不超过"}}

	concepts = []lexicon{conceptAnswer, conceptSentence, conceptLanguage, conceptMessage, conceptTool, conceptList, conceptAloud, conceptMention, conceptImage, conceptRule}

	// optionRE is an option of the answer format ("option 2").
	optionRE = regexp.MustCompile(`(?i)\boption\s*[12]\b`)
	// presentRE presents what follows ("Here is my answer:", "Voici",
	// "以下是").
	presentRE = regexp.MustCompile(`(?i)^\s*(?:[\p{L}!,.]{1,12}[,!.]?\s+)?(?:here is|here's|here are|here you go|voici|voilà|hier ist|hier sind|hier die|hier das|hier meine|hier mein|bitte sehr|以下是|这是|下面是)`)
	// parentheticalRE is an aside in parentheses.
	parentheticalRE = regexp.MustCompile(`\s*[(（\[][^()（）\[\]]{2,200}[)）\]]\s*`)
	// leadRE is a lead-in clause that ends with a colon.
	leadRE = regexp.MustCompile(`^([^:：]{2,120})[:：]\s*`)
)

// isMeta reports whether a text speaks of the making of the answer (see
// above).
func isMeta(s string) bool {
	t := newText(s)
	if conceptStrong.in(t) || optionRE.MatchString(s) {
		return true
	}
	n := 0
	for _, c := range concepts {
		if c.in(t) {
			n++
		}
	}
	return n >= 3 || n >= 2 && (obligation.in(t) || limit.in(t) || limitCount(t))
}

// limitCount reports a count of sentences ("two sentences", "2 phrases",
// "两句话").
func limitCount(t text) bool {
	i := conceptSentence.index(t)
	if i > 0 {
		switch t.words[i-1] {
		case "one", "two", "three", "1", "2", "3", "une", "deux", "trois", "ein", "einen", "zwei", "drei", "short", "kurze", "courtes":
			return true
		}
		if i > 1 && (t.words[i-2] == "two" || t.words[i-2] == "zwei" || t.words[i-2] == "deux") {
			return true
		}
	}
	return strings.Contains(t.raw, "两句") || strings.Contains(t.raw, "一句") || strings.Contains(t.raw, "三句")
}

// metaTalk removes a sentence's talk about the answer: asides in
// parentheses and lead-in clauses (before a colon) that are such talk go,
// the rest stays ("Here is my answer in JSON: Hello!" says "Hello!"); it
// reports drop when the whole sentence is such talk, or presents
// something else than the answer ("Here is the standalone question: …").
func metaTalk(s string) (rest string, drop bool) {
	s = parentheticalRE.ReplaceAllStringFunc(s, func(m string) string {
		if isMeta(m) {
			return " "
		}
		return m
	})
	s = strings.TrimSpace(s)
	if m := leadRE.FindStringSubmatch(s); m != nil {
		lead := m[1]
		switch {
		case presentRE.MatchString(lead) && !conceptAnswer.in(newText(lead)) && isMetaOrPresent(lead):
			return "", true // presents a question, a rewrite, a summary: not the answer
		case isMeta(lead) || presentRE.MatchString(lead) || answerLabel(lead):
			s = capitalize(strings.TrimSpace(s[len(m[0]):]))
		}
	}
	if s == "" || isMeta(s) {
		return "", true
	}
	return s, false
}

// isMetaOrPresent reports whether a presenting lead-in presents a thing
// of the answer's making (a question, a rewrite, a plan, a summary, a
// format) rather than, say, a place ("Here is MIRALab:").
func isMetaOrPresent(lead string) bool {
	t := newText(lead)
	made := lexicon{prefixes: []string{"question", "rewrit", "reformul", "standalone", "summary", "resume", "zusammenfass", "plan", "translation", "traduction", "ubersetz", "output", "result", "format"}, cjk: []string{"问题", "改写", "摘要", "翻译", "结果"}}
	return made.in(t) || isMeta(lead)
}

// answerLabel reports whether a lead-in is only a name of the answer
// ("Réponse", "Antwort", "Response"): a label of the format.
func answerLabel(lead string) bool {
	t := newText(lead)
	return len(t.words) == 1 && conceptAnswer.in(t)
}
