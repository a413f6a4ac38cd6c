package speakable

import (
	"regexp"
	"slices"
	"strings"
)

// A model that writes a reply as plain text (the graph's response) frames
// it as an assistant frames a document: a label of its own before it
// ("Disclaimer:", "Draft 2:", "Note to developer:"), a letter's sign-off
// after it, a hope that the reply itself suits, an offer to revise it.
// None is Nadine talking with a visitor; each is read from its structure,
// in four languages, in a model's reply only.
var (
	// metaLabelRE is a label a model's note or draft opens with.
	metaLabelRE = regexp.MustCompile(`(?i)^\W{0,3}(?:disclaimer|explanation|rationale|justification|draft\s*\d*|version\s*\d+|note\s+(?:to|for)\s+(?:the\s+)?(?:developers?|devs?|users?|readers?|reviewers?)` +
		`|avertissement|explication|brouillon\s*\d*|note\s+(?:au|aux|pour\s+les?)\s+(?:developpeurs?|lecteurs?)` +
		`|haftungsausschluss|erklarung|begrundung|entwurf\s*\d*|hinweis\s+(?:an|fur)\s+(?:die\s+|den\s+)?(?:entwickler|leser)` +
		`|免责声明|解释|草稿\s*\d*|给开发者的说明)\s*[:：]`)
	// signOffRE is a letter's closing formula as the whole sentence, a
	// name of up to three words after it or not.
	signOffRE = regexp.MustCompile(`(?i)^\W{0,3}(?:(?:best|kind|warm|warmest|with\s+kind)\s+regards|sincerely|yours\s+(?:truly|sincerely)|cordialement|bien\s+a\s+vous|(?:mit\s+)?freundliche[nm]?\s+grussen|(?:viele|liebe|herzliche)\s+grusse|此致敬礼|此致|祝好)[\s,，.!。]*(?:\p{L}+(?:\s+\p{L}+){0,2})?[\s.!。]*$`)
	// nameCloseRE is a few words, a comma and her name as the whole
	// sentence ("Cheers, Nadine", "LG, Nadine", "Bises, Nadine"): she never
	// says her own name to herself, so it is a letter's close.
	nameCloseRE = regexp.MustCompile(`(?i)^\W{0,3}\p{L}[\p{L}'’ ]{0,24}[,，]\s*nadine[^\p{L}\p{N}]*$`)
	// replyHopeRE hopes the reply itself suits the listener.
	replyHopeRE = regexp.MustCompile(`(?i)\bhope\W+(?:that\s+)?(?:this|my|the)\s+(?:answer|reply|response)\b|\bespere\s+que\s+(?:cette|ma|la)\s+reponse\b|\bhoffe,?\s+(?:dass\s+)?(?:diese|meine|die)\s+antwort\b|希望(?:这个|我的|这条|以上)(?:回答|回复)`)
	// reviseOfferRE offers to revise the reply.
	reviseOfferRE = regexp.MustCompile(`(?i)\b(?:like|want|prefer|shall|should|can|could|may|happy\s+to)\s+(?:me\s+to\s+|I\s+)?(?:adjust|change|rewrite|rephrase|shorten|lengthen|revise|modify|tweak|expand|simplify|redo)\s+(?:the|my|this|that)\s+(?:tone|reply|response|answer|wording|text|length|style|message)\b` +
		`|\b(?:ajuste|modifie|reformule|raccourcisse|change|adapte)r?\s+(?:le\s+ton|la\s+reponse|ma\s+reponse|le\s+texte)\b|\b(?:den\s+ton|die\s+antwort|meine\s+antwort|den\s+text)\s+(?:anpassen|andern|umformulieren|kurzen)\b|(?:调整|修改|改写)(?:一下)?(?:语气|回答|回复)`)
)

// reviseTriggers are substrings one of which replyHopeRE or reviseOfferRE
// needs: without any, the expressions are not tried.
var reviseTriggers = []string{"hope", "espere", "hoffe", "希望", "adjust", "chang", "rewrit", "rephras", "shorten", "lengthen", "revis", "modif", "tweak", "expand", "simplif", "redo",
	"ajust", "reformul", "raccourc", "adapt", "anpass", "ander", "umformul", "kurz", "调整", "修改", "改写"}

// modelFrame returns why a model's sentence frames its reply as a
// document, or "": the sentence folded as foldMarks folds it.
func modelFrame(folded string) string {
	lower := strings.ToLower(folded)
	switch {
	case metaLabelRE.MatchString(folded):
		return "a model's note or draft"
	case signOffRE.MatchString(folded), nameCloseRE.MatchString(folded):
		return "a letter's sign-off"
	case slices.ContainsFunc(reviseTriggers, func(t string) bool { return strings.Contains(lower, t) }) &&
		(replyHopeRE.MatchString(folded) || reviseOfferRE.MatchString(folded)):
		return "the reply talked about with its listener"
	}
	return ""
}
