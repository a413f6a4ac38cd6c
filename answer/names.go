package answer

import (
	"regexp"
	"strings"
	"unicode"
)

// replyNames are the words a field or label holding the reply is named
// with, in the languages Nadine speaks ("reply", "réponse", "Antwort",
// "回复"): a model that answers in a structure names its reply so.
const replyNames = `response|reply|answer|text|message|content|speech|say|output|final|utterance|réponse|reponse|texte|parole|contenu|sortie|finale|antwort|nachricht|ausgabe|inhalt|aussage|回复|回答|答复|答案|回应|文本|消息|内容|输出|发言`

// asideNames are the words that name a field as something else than the
// reply even beside a reply's word: its reasoning, its sources, the prompt
// or a role's words, or the reply in another form ("reply_markdown",
// "system_message", "answer_sources").
const asideNames = reasoningNames + `|sources?|quelles?|quelle|links?|liens?|urls?|refs?|references?|références?|citations?|notes?|notizen|hinweise?|remarques?|explanation|erklärung|begründung|begruendung|raison|rationale|why|context|contexte|kontext|meta|metadata|debug|prompt|system|user|instructions?|consignes?|anweisungen?|rules?|règles?|regeln|input|query|question|markdown|md|html|ssml|xml|json|raw|formatted|rendered|display|draft|来源|链接|参考|说明|备注|系统|提示|指令|规则`

var (
	// replyNameRE ends a word with a reply's name: the word itself, or a
	// compound whose head it is ("Antworttext", "Endantwort", "最终回答").
	replyNameRE = regexp.MustCompile(`(?:` + replyNames + `)$`)
	asideNameRE = regexp.MustCompile(`^(?:` + asideNames + `)$`)
	// hanAsideRE finds an aside's name in a key written in Chinese, which
	// has no spaces between its words ("回复来源").
	hanAsideRE = regexp.MustCompile(`思考|推理|分析|想法|来源|链接|参考|说明|备注|系统|提示|指令|规则`)
)

// NamesReply reports whether a field's name says it holds the reply: its
// last word (a name's head, in the four languages: "final_answer",
// "réponse_finale", "Antworttext", "最终回答") names a reply and no word
// names an aside ("reasoning", "answer_sources", "reply_markdown"), nor
// what the reply has ("message_id", "response_time").
func NamesReply(name string) bool {
	words := nameWords(name)
	if len(words) == 0 || NamesAside(name) {
		return false
	}
	return replyNameRE.MatchString(words[len(words)-1])
}

// NamesAside reports whether a field's name says it holds something said
// beside the reply (reasoning, sources, notes, the prompt, another form).
func NamesAside(name string) bool {
	for _, w := range nameWords(name) {
		if asideNameRE.MatchString(w) || hanAsideRE.MatchString(w) {
			return true
		}
	}
	return false
}

// nameWords splits a field's name into its lower-case words: at spaces,
// underscores, hyphens and dots, and where camel case starts a word.
func nameWords(name string) []string {
	var words []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			words = append(words, b.String())
			b.Reset()
		}
	}
	prev := rune(0)
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		prev = r
	}
	flush()
	return words
}
