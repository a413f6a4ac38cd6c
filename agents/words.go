package agents

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/nadine-robot/nadine"
)

// The word lists of the deterministic rules in English, French, German and
// Chinese: Latin phrases match whole words (normalize), Chinese substrings.
var (
	// farewellPhrases: end_conversation needs one of them (the intent classifier's rule: "bye",
	// "see you", "have to go now").
	farewellPhrases = []string{
		"bye", "goodbye", "bye bye", "see you", "see ya", "have to go now", "got to go", "gotta go",
		"must go now", "need to go now", "good night", "farewell", "talk to you later",
		"au revoir", "à bientôt", "a bientot", "à plus tard", "à la prochaine", "adieu", "bonne nuit",
		"je dois partir", "je dois y aller", "il faut que j'y aille",
		"tschüss", "tschüs", "tschau", "auf wiedersehen", "bis bald", "bis später", "bis dann",
		"ich muss jetzt gehen", "ich muss los", "gute nacht",
		"再见", "拜拜", "回头见", "下次见", "我得走了", "我要走了", "晚安",
	}
	// aboutNadinePhrases: a question about Nadine is not a profile update.
	aboutNadinePhrases = []string{
		"tell me about yourself", "tell me more about yourself", "who are you", "what are you",
		"introduce yourself", "what's your name", "what is your name",
		"parle moi de toi", "parlez moi de vous", "qui es tu", "qui êtes vous", "comment tu t'appelles",
		"comment vous appelez vous", "présente toi", "présentez vous",
		"erzähl mir von dir", "erzähl mir etwas über dich", "erzählen sie mir von sich", "wer bist du",
		"wer sind sie", "wie heißt du", "wie heisst du", "stell dich vor", "stellen sie sich vor",
		"介绍一下你自己", "介绍你自己", "你是谁", "你叫什么", "说说你自己",
	}
	// greetingPhrases: a short message made of a greeting needs no plan.
	greetingPhrases = []string{
		"hello", "hi", "hey", "good morning", "good afternoon", "good evening", "greetings", "howdy",
		"bonjour", "salut", "bonsoir", "coucou",
		"hallo", "guten morgen", "guten tag", "guten abend", "servus", "grüß gott", "grüss gott", "moin",
		"你好", "您好", "早上好", "下午好", "晚上好", "嗨",
	}
	affirmativePhrases = []string{
		"yes", "yeah", "yep", "yup", "correct", "right", "exactly", "indeed", "sure", "that's me",
		"that is me", "it's me", "of course", "absolutely",
		"oui", "ouais", "exact", "exactement", "c'est moi", "c'est ça", "tout à fait", "bien sûr", "bien sur",
		"ja", "genau", "richtig", "stimmt", "das bin ich", "korrekt", "jawohl",
		"是", "对", "没错", "是我", "是的", "对的", "嗯",
	}
	negativePhrases = []string{
		"no", "nope", "not", "nah", "wrong", "incorrect",
		"non", "pas",
		"nein", "nicht", "falsch", "kein",
		"不", "没有", "错",
	}
)

// introPhrase precedes a given name; a loose one ("I'm ...") also precedes other
// words ("I'm fine"), so its name must not be a common word.
type introPhrase struct {
	phrase string
	loose  bool
}

var introPhrases = []introPhrase{
	{"my name is", false}, {"my name's", false}, {"call me", false}, {"i go by", false},
	{"je m'appelle", false}, {"mon nom est", false}, {"mon prénom est", false}, {"appelle moi", false},
	{"appelez moi", false},
	{"ich heiße", false}, {"ich heisse", false}, {"mein name ist", false}, {"nenn mich", false},
	{"nennen sie mich", false},
	{"我叫", false}, {"我的名字是", false}, {"我的名字叫", false}, {"叫我", false},
	{"i'm", true}, {"i am", true}, {"this is", true}, {"it's", true},
	{"je suis", true}, {"c'est", true}, {"ich bin", true}, {"我是", true},
}

// nameStopwords are words that follow "I'm" without being a name.
var nameStopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`not sorry afraid sure fine good great ok okay here there the a an
		from so very really just also called named in at on glad happy sad well doing going tired back new
		your my his her their to looking trying going fine excited interested from working living
		alright all right busy ready done sorry curious lost hungry thirsty cold hot me you it that this
		pas très bien ici là content contente désolé désolée fatigué fatiguée un une le la de en
		nicht sehr gut hier da froh müde ein eine der die das aus zu
		me it's im ça ca moi vrai exact correct juste bon right true wrong es ich er sie wahr richtig genau
		him us them yes no oui non ja nein sure certain`) {
		nameStopwords[w] = true
	}
}

// normalize makes phrases match whole words: lowercase, one apostrophe,
// punctuation as "," words, other non-letters as single spaces, spaces at the ends.
func normalize(s string) string {
	var b strings.Builder
	b.WriteByte(' ')
	space := true
	for _, r := range strings.ToLower(s) {
		switch {
		case r == '’' || r == '‘' || r == '`' || r == '´':
			r = '\''
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' {
			b.WriteRune(r)
			space = false
			continue
		}
		if !space {
			b.WriteByte(' ')
			space = true
		}
		if strings.ContainsRune(",.;:!?…，。！？、；：", r) {
			// A punctuation mark stays as a word of its own, so that
			// a name stops there ("Call me Sam, please").
			b.WriteString(", ")
		}
	}
	if !space {
		b.WriteByte(' ')
	}
	return b.String()
}

func hasCJK(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// containsPhrase reports whether the normalized text n holds phrase.
func containsPhrase(n, phrase string) bool {
	p := strings.TrimSpace(normalize(phrase))
	if p == "" {
		return false
	}
	if hasCJK(p) {
		return strings.Contains(n, p)
	}
	return strings.Contains(n, " "+p+" ")
}

func containsAny(text string, phrases []string) bool {
	n := normalize(text)
	for _, p := range phrases {
		if containsPhrase(n, p) {
			return true
		}
	}
	return false
}

// HasFarewell reports whether text holds an explicit farewell ("bye",
// "see you", "have to go now", "au revoir", "tschüss", "再见", ...).
func HasFarewell(text string) bool { return containsAny(text, farewellPhrases) }

// AsksAboutNadine reports whether text asks about Nadine herself ("tell me
// about yourself", "who are you", "qui êtes-vous", "你是谁", ...).
func AsksAboutNadine(text string) bool { return containsAny(text, aboutNadinePhrases) }

// IntroducedName returns the title-cased name given in text ("I'm Alex",
// "je m'appelle Léa", "我叫小明"), or "".
func IntroducedName(text string) string {
	n := normalize(text)
	for _, ip := range introPhrases {
		p := strings.TrimSpace(normalize(ip.phrase))
		if hasCJK(p) {
			i := strings.Index(n, p)
			if i < 0 {
				continue
			}
			if name := cjkNameAfter(n[i+len(p):]); name != "" {
				return name
			}
			continue
		}
		for rest := n; ; {
			i := strings.Index(rest, " "+p+" ")
			if i < 0 {
				break
			}
			rest = rest[i+len(p)+1:]
			if name := nameAfter(rest, ip.loose); name != "" {
				return name
			}
		}
	}
	return ""
}

// cjkNameAfter takes the name after a Chinese introduction: up to four
// Chinese characters, or one Latin word ("我叫Alice").
func cjkNameAfter(s string) string {
	var name []rune
	for _, r := range s {
		if !unicode.IsLetter(r) {
			break
		}
		han := unicode.Is(unicode.Han, r)
		if len(name) > 0 && han != unicode.Is(unicode.Han, name[0]) || han && len(name) == 4 {
			break
		}
		name = append(name, r)
	}
	if len(name) == 0 {
		return ""
	}
	if !unicode.Is(unicode.Han, name[0]) {
		return titleCase(string(name))
	}
	return string(name)
}

// nameAfter takes up to three name words at the start of the normalized
// text s.
func nameAfter(s string, loose bool) string {
	words := strings.Fields(s)
	if len(words) == 0 {
		return ""
	}
	var name []string
	for _, w := range words {
		if len(name) == 3 || nameStopwords[w] || hasCJK(w) || !isWord(w) {
			break
		}
		name = append(name, titleCase(w))
	}
	if len(name) == 0 || (loose && nameStopwords[words[0]]) {
		return ""
	}
	return strings.Join(name, " ")
}

func isWord(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) && r != '\'' {
			return false
		}
	}
	return true
}

func titleCase(w string) string {
	r := []rune(w)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// isAffirmative reports whether an answer confirms ("yes", "that's me",
// "oui", "ja", "是") and does not deny.
func isAffirmative(text string) bool {
	return containsAny(text, affirmativePhrases) && !containsAny(text, negativePhrases)
}

// looksLikeGreetingOnly: a short greeting or farewell with no question needs
// no plan, so the orchestrator does not plan it speculatively.
func looksLikeGreetingOnly(text string) bool {
	if strings.ContainsAny(text, "?？") {
		return false
	}
	words := strings.Fields(strings.ReplaceAll(normalize(text), ",", " "))
	if hasCJK(text) {
		if len([]rune(strings.Join(words, ""))) > 12 {
			return false
		}
	} else if len(words) > 6 {
		return false
	}
	return containsAny(text, greetingPhrases) || containsAny(text, farewellPhrases)
}

// confirmQuestion asks whether the person's name is name, in language l.
func confirmQuestion(l nadine.Language, name string) string {
	switch l {
	case nadine.French:
		return fmt.Sprintf("Vous appelez-vous %s ?", name)
	case nadine.German:
		return fmt.Sprintf("Heißen Sie %s?", name)
	case nadine.Chinese:
		return fmt.Sprintf("你的名字是%s吗？", name)
	}
	return fmt.Sprintf("Is your name %s?", name)
}

func isHan(r rune) bool { return unicode.Is(unicode.Han, r) }
