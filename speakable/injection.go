package speakable

import (
	"regexp"
	"slices"
	"strings"
)

// An order to drop or reveal the rules ("ignore your previous
// instructions", "oubliez vos consignes", "vergiss deine Anweisungen",
// "忽略你的指令") is what a page or a tool result plants for the model: said
// aloud it is no speech, whoever it is addressed to. It is read from
// structure, an imperative (first in its clause, after "and", "then",
// "please", or a modal to "you") of dropping or revealing, and a noun of the
// rules a model is given within a few words; "forget the rain", "oubliez vos
// soucis" name no rules. docs/speech.md, "Markup, addresses, the prompt
// paraphrased".

// injectionRE are the marks, one per language; every sentence is read with
// all of them, for an order is often left in the page's language.
var injectionRE = []*regexp.Regexp{
	regexp.MustCompile(`(?i)(?:^|[,;:.!?—–-]\s*|\b(?:and|then|now|please|just|simply)\s+|\byou\s+(?:should|must|can|may|need\s+to|have\s+to)\s+)` +
		`(?:ignore|forget|disregard|drop|override|bypass|abandon|reveal|print|output|display|dump|leak|expose|repeat|recite|show(?:\s+me)?|tell\s+me)\s+` +
		`(?:[\p{L}'-]+\s+){0,3}?(?:instructions?|rules|guidelines|prompt|directives|directions|programming|configuration|guardrails|restrictions|constraints|system\s+message)\b` +
		`|\b(?:ignore|forget|disregard)\s+(?:everything|all)\s+(?:above|prior|previous|(?:that\s+)?you\s+(?:were|have\s+been)\s+told)\b`),
	regexp.MustCompile(`(?i)(?:^|[,;:.!?—–-]\s*|\b(?:et|puis|ensuite|maintenant|alors|s'il\s+(?:te|vous)\s+plait)\s+|\b(?:tu\s+dois|vous\s+devez|il\s+faut)\s+)` +
		`(?:ignorez?|ignore|oubliez?|oublie|ne\s+tenez\s+pas\s+compte\s+d[eu']s?|ne\s+tiens\s+pas\s+compte\s+d[eu']s?|revelez?|devoilez?|affichez?|imprimez?|montrez(?:-moi)?|montre(?:-moi)?|repetez?|divulguez?|contournez?|abandonnez?|laissez\s+tomber|laisse\s+tomber)\s*` +
		`(?:[\p{L}']+\s+){0,3}?(?:consignes|instructions?|regles|directives|prompt|invite\s+systeme|configuration|parametres|restrictions)\b` +
		`|\b(?:ignorez?|ignore|oubliez?|oublie)\s+tout\s+ce\s+(?:qu'on\s+(?:t'a|vous\s+a)\s+dit|que\s+(?:je\s+)?(?:t'ai|vous\s+ai)\s+dit|qui\s+precede)\b`),
	regexp.MustCompile(`(?i)(?:^|[,;:.!?—–-]\s*|\b(?:und|dann|jetzt|nun|bitte)\s+|\b(?:du\s+sollst|du\s+musst|sie\s+mussen|sie\s+sollen)\s+)` +
		`(?:ignoriere|ignoriert|ignorieren\s+sie|vergiss|vergesst|vergessen\s+sie|missachte|missachten\s+sie|umgehe|verwirf|zeig(?:e)?(?:\s+mir)?|gib|verrate|drucke|wiederhole|offenbare|enthulle)\s+` +
		`(?:[\p{L}']+\s+){0,3}?(?:Anweisungen|Anweisung|Regeln|Vorgaben|Richtlinien|Systemprompt|Prompt|Konfiguration|Einschrankungen|Systemnachricht)\b` +
		`|\b(?:ignoriere|vergiss|vergessen\s+sie)\s+alles\s*,?\s+(?:was\s+(?:man\s+)?(?:dir|ihnen)\s+gesagt|davor|vorher|bisher|oben)\b`),
	regexp.MustCompile(`(?:忽略|忘记|忘掉|无视|不要理会|别管|绕过|透露|泄露|显示|打印|输出|重复|说出|告诉我|公开)(?:一下)?(?:你的|您的|所有的?|之前的?|以上的?|上面的?|全部的?|先前的?|原来的?|系统的?){0,3}(?:指令|指示|规则|设定|提示词|系统提示|配置|说明|限制)` +
		`|(?:忽略|忘记|忘掉|无视)(?:之前|以上|上面|前面|先前)的?(?:一切|所有内容|全部内容|内容|话)`),
}

// injectionVerbs are the stems of the marks' verbs, folded: a sentence
// without any is read no further (the marks' expressions are the costly
// part of the check).
var injectionVerbs = []string{
	"ignor", "forget", "disregard", "drop", "overrid", "bypass", "abandon", "reveal", "print", "output", "display", "dump", "leak", "expose", "repeat", "recit", "show", "tell me",
	"oubli", "tenez", "tiens", "revel", "devoil", "affich", "imprim", "montr", "repet", "divulg", "contourn", "laisse",
	"vergiss", "vergess", "missacht", "umgeh", "verwirf", "zeig", "gib", "verrat", "druck", "wiederhol", "offenbar", "enthull",
	"忽略", "忘", "无视", "理会", "别管", "绕过", "透露", "泄露", "显示", "打印", "输出", "重复", "说出", "告诉我", "公开",
}

// injectionOf reports whether s orders, in any of the four languages, to
// drop or reveal the rules a model is given.
func injectionOf(s string) bool {
	s = foldMarks(s)
	lower := strings.ToLower(s)
	if !slices.ContainsFunc(injectionVerbs, func(v string) bool { return strings.Contains(lower, v) }) {
		return false // no verb of dropping or revealing: the expressions need not run
	}
	for _, re := range injectionRE {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
