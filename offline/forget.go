package offline

import (
	"strings"
	"unicode"
)

// A minimal recognition of "forget me" in the four languages, kept apart
// from the classifier: the engine emits nadine.EventForgetRequest and
// leaves the reply to the dialogue manager, which asks the person to
// confirm. The example-based classifier's forget_me intent replaces it.

// forgetPhrases ask Nadine to forget the speaker, written as normalized
// (forgetKey) text.
var forgetPhrases = []string{
	"forget me", "forget about me", "forget everything about me", "forget all about me", "forget what you know about me",
	"forget everything you know about me", "erase me", "delete me", "delete my data", "erase my data", "delete everything about me",
	"erase everything about me", "delete what you know about me", "remove my data",
	"oublie moi", "oubliez moi", "oublie tout sur moi", "oubliez tout sur moi", "oublie tout ce que tu sais sur moi",
	"oubliez tout ce que vous savez sur moi", "efface mes données", "effacez mes données", "supprime mes données",
	"supprimez mes données", "efface tout sur moi", "effacez tout sur moi",
	"vergiss mich", "vergessen sie mich", "vergiss alles über mich", "vergessen sie alles über mich", "lösch meine daten",
	"lösche meine daten", "löschen sie meine daten", "lösch alles über mich", "löschen sie alles über mich",
	"忘记我", "忘了我", "忘掉我", "删除我的数据", "删除我的信息", "删掉我的信息", "删除关于我的", "忘记关于我的",
}

// forgetNegations keep "don't forget me" from being a request.
var forgetNegations = []string{"don't", "dont", "do not", "never", "not", "pas", "jamais", "nicht", "nie", "不要", "别", "不", "没"}

// asksToForget reports whether text asks Nadine to forget the speaker.
func asksToForget(text string) bool {
	key := " " + forgetKey(text) + " "
	compact := strings.ReplaceAll(key, " ", "")
	for _, n := range forgetNegations {
		if strings.Contains(key, " "+n+" ") || (n[0] >= 0x80 && strings.Contains(compact, n)) {
			return false
		}
	}
	for _, p := range forgetPhrases {
		if strings.Contains(key, " "+p+" ") || (p[0] >= 0x80 && strings.Contains(compact, p)) {
			return true
		}
	}
	return false
}

// forgetKey lowercases text and keeps its words (apostrophes inside them)
// separated by single spaces; hyphens separate words ("oublie-moi").
func forgetKey(text string) string {
	f := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’')
	})
	return strings.ReplaceAll(strings.Join(f, " "), "’", "'")
}
