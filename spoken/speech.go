package spoken

import (
	"encoding/json"
	"errors"
	"html"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/unicode/norm"

	"github.com/nadine-robot/nadine"
)

// MaxRunes is the cleaned length past which a reply is runaway output: far
// past two short sentences, and past a recited song (under 1,500).
const MaxRunes = 2000

var (
	thinkOpenRE = regexp.MustCompile(`(?i)<(think|thinking|reasoning|reflection)>`)
	// shapeThinkRE is a reasoning tag drawn with triangles for brackets,
	// as Kimi's template writes it ("◁think▷…◁/think▷").
	shapeThinkRE = regexp.MustCompile(`(?i)◁(/?(?:think|thinking|reasoning|reflection))▷`)
	// bareChannelRE opens gpt-oss's analysis channel as a server prints it
	// without the harmony format's special tokens ("analysisThe user…").
	bareChannelRE = regexp.MustCompile(`^(?i:analysis|commentary)\p{Lu}`)
	fenceBlockRE  = regexp.MustCompile("(?s)```.*?(?:```|$)")
	imageRE       = regexp.MustCompile(`!\[[^\]]*\]\([^)]*\)|\[[^\]\n]{0,120}\]\(\s*[^()\s]*\.` + PictureExt + `(?:\?[^()\s]*)?\s*\)`)
	linkRE        = regexp.MustCompile(`\[([^\]]+)\]\([^)]*\)`)
	speechURLRE   = regexp.MustCompile(`(?i)\b(?:https?://|www\.)\S+`)
	specialRE     = regexp.MustCompile(`(?i)<\|[^|<>]{0,40}\|>|</?s>|\[/?INST\]|<(?:start|end)_of_turn>|<eos>|<bos>|<pad>`)
	structureRE   = regexp.MustCompile(`(?i)</?(?:html|head|body|div|script|style|table|tr|td|th|ul|ol|li|h[1-6]|speak|prosody|break|voice|xml|\?xml|svg|iframe|form|input)\b[^>]*>`)
	inlineTagRE   = regexp.MustCompile(`(?i)</?(?:b|i|u|em|strong|p|span|br|small|mark)\s*/?>`)
	headingRE     = regexp.MustCompile(`^#{1,6}\s+`)
	// A list may count with letters ("a)") or small roman numerals ("ii.").
	bulletRE    = regexp.MustCompile(`^(?:[-*•+]|\d{1,2}[.)/°]|[a-hA-H]\)|(?:i{1,3}|iv|vi{0,3}|ix|x)[.)])\s+`)
	quoteLineRE = regexp.MustCompile(`^>+\s?`)
	ruleLineRE  = regexp.MustCompile(`^\s*(?:[-*_=~+]{3,}|\+(?:[-=:]{2,}\+)+|\|?[\s:|-]*-{3,}[\s:|-]*\|?)\s*$`)
	boldRE      = regexp.MustCompile(`\*\*([^*]+)\*\*|__([^_]+)__`)
	// highlightRE is Markdown's highlight ("==vraiment=="): the words stay,
	// but a label highlighted as a badge goes.
	highlightRE = regexp.MustCompile(`==([^=\s][^=\n]{0,78}[^=\s]|[^=\s])==`)
	// insertRE is Markdown's inserted text ("++vraiment++"): the words stay.
	insertRE = regexp.MustCompile(`\+\+([^+\s][^+\n]{0,78}[^+\s]|[^+\s])\+\+`)
	// asciiGuillemetsRE is a French quotation typed with angle brackets
	// ("<<Bonjour>>"), which a synthesizer reads as signs.
	asciiGuillemetsRE = regexp.MustCompile(`<<\s?([^<>\n]{1,200}?)\s?>>`)
	// byteEscapesRE is UTF-8 written as its bytes' escapes ("\xF0\x9F\x98\x8A").
	byteEscapesRE = regexp.MustCompile(`(?:\\x[0-9a-fA-F]{2})+`)
	// noteLabelRE is a letter's note label opening a sentence ("P.-S. :",
	// "PS :", "N.B. :", "TL;DR :"): what follows is said, the label is not.
	noteLabelRE = regexp.MustCompile(`(^|[.!?…]\s+)(?:(?:[Pp]\.?\s?-?\s?)?[Pp]\.?\s?-?\s?[Ss]\.?|N\.\s?B\.?|TL;?\s?DR)\s*(?:[:：]\s*|$)`)
	// strayBackslashRE is a backslash left at a word's end.
	strayBackslashRE = regexp.MustCompile(`(\p{L})\\+(\s|$)`)
	// chatLaughRE is laughter written as a chat's abbreviation ("mdr", "lol").
	chatLaughRE = regexp.MustCompile(`(?i)(^|[\s,])(?:lol|mdr|ptdr|xptdr|lmao|rofl)([\s,.!?]|$)`)
	// codePointRE is a character written as its code point ("U+1F60A") or
	// as a braced escape ("\u{1F44B}").
	codePointRE = regexp.MustCompile(`\bU\+([0-9A-Fa-f]{4,6})\b|\\u\{([0-9A-Fa-f]{1,6})\}`)
	// quotedPrintableRE is UTF-8 written as quoted-printable ("=C3=A9").
	quotedPrintableRE = regexp.MustCompile(`=[C-Fc-f][0-9A-Fa-f](?:=[89ABab][0-9A-Fa-f])+`)
	// asciiArrowRE is an arrow typed in signs between words ("->", "=>").
	asciiArrowRE = regexp.MustCompile(`\s(?:-+>|=+>|<-+|<=+|<-+>)\s`)
	// discordEmojiRE is a chat app's custom emoji ("<:nadine_smile:834523781>").
	discordEmojiRE = regexp.MustCompile(`<a?:[A-Za-z0-9_]{2,32}:\d{5,20}>`)
	// mailFooterRE is a mail client's footer ("Envoyé depuis mon iPhone").
	// The footer names a device or a mail program: "envoyée de mon labo"
	// is a sentence.
	mailFooterRE = regexp.MustCompile(`(?i)(?:(?:sent\s+from\s+my|envoy[ée]\s+(?:depuis|de)\s+mon|von\s+meinem|gesendet\s+von\s+meinem|发自我的)\s*(?:i(?:phone|pad)|android|samsung|galaxy|pixel|mobile|smartphone|téléphone|portable|handy|outlook|gmail|手机)\S*(?:\s+gesendet)?|(?:envoy[ée]\s+(?:à\s+partir|depuis)\s+d['’]|sent\s+from\s+|get\s+|obtenir\s+|holen\s+sie\s+sich\s+)outlook\s+(?:pour|for|für)\s+(?:android|ios|iphone|windows|mac)\S*)\s*$`)
	// percentBytesRE is UTF-8 percent-encoded outside an address
	// ("Gr%C3%BC%C3%9Fe"): two bytes or more, the first a lead byte.
	percentTokenRE = regexp.MustCompile(`\S*%(?:2[0-9A-Fa-f]|3[A-Fa-f]|0[AaDd])\S*`)
	percentBytesRE = regexp.MustCompile(`%[C-Fc-f][0-9A-Fa-f](?:%[89ABab][0-9A-Fa-f])+`)
	// texBareRE is a TeX command with no argument ("\item", "\noindent").
	texBareRE = regexp.MustCompile(`\\[a-zA-Z]{2,20}\b\*?`)
	// texCommandRE is a TeX command around words ("\textbf{Nadine}"): the
	// words stay; texSymbolRE a symbol set as TeX ("$\heartsuit$").
	texCommandRE = regexp.MustCompile(`\\(?:text[a-z]{0,4}|emph|mathrm|mathbf|underline)\{([^{}\n]{1,80})\}`)
	texSymbolRE  = regexp.MustCompile(`\$\\[a-zA-Z]{2,20}\$`)
	// shapeBulletRE is a geometric shape standing alone, a bullet ("► Bonjour
	// ■ Je suis"); a shape glued to words (◁think▷) is a template's.
	shapeBulletRE = regexp.MustCompile(`(^|\s)[\x{25A0}-\x{25FF}]+(\s|$|\p{Lu})`)
	// noteFieldRE is a note's field in square brackets ("[emotion: joie]",
	// "[gesture=wave]"): the model's annotation, not words said.
	noteFieldRE = regexp.MustCompile(`\s*\[[\p{L}_]{2,20}\s*[:=]\s*[^\[\]\n]{1,40}\]`)
	italicRE    = regexp.MustCompile(`(^|[\s(\p{Han}，。！？、：])[*_]([^*_\s][^*_]*?)[*_]([\s).,!?;:\p{Han}，。！？、：]|$)`)
	// shortcodeGluedRE is an emoji's shortcode glued to the word before it
	// ("Nadine:smile:，").
	shortcodeGluedRE = regexp.MustCompile(`(\p{L}):[a-z][a-z0-9_+-]{1,30}:([\s\p{Han}，。！？,.!?]|$)`)
	// signatureRE is her name signed after the reply with a dash ("— Nadine
	// 🤖"): a letter's close, not a sentence.
	signatureRE = regexp.MustCompile(`(?:^|\s)(?:—|–|--|——)\s*Nadine(?:\s*[,|·–—-]\s*[\p{L} ]{1,40})?\W*$`)
	// linkAloneRE is a link standing alone after a sentence or on its line
	// ("[En savoir plus](#a-propos)"): a page's button, not a sentence.
	linkAloneRE = regexp.MustCompile(`(?m)(^|[.!?…]\s+)\[[^\]\n]+\]\([^)\n]*\)[ \t]*$`)
	stageRE     = regexp.MustCompile(`^(?:\*[^*]{1,60}\*|\([^)]{1,60}\)|\[[^\]]{1,60}\]|（[^）]{1,30}）)\s*`)
	// shortcodeRE is an emoji written as its name between colons
	// (":smile:"), which a speech synthesizer reads as words.
	shortcodeRE = regexp.MustCompile(`(^|[\s\p{Han}，。！？]):(?:[a-z][a-z0-9_+-]{1,30}|[+-]1):`)
	// hashtagRE is a hashtag after a space or at the start ("#MIRALab"),
	// not "C#" nor a number ("#1").
	hashtagRE = regexp.MustCompile(`(^|[\s(（，,])#\p{L}[\p{L}\p{N}_]*`)
	// dotsRunRE is a run of middle dots, an ellipsis written with them.
	dotsRunRE = regexp.MustCompile(`\s*[·・･]{2,}`)
	// bracketDateRE is a date in square brackets ("[2013-06-12]",
	// "[12/06/2013]", "[Juni 2013]", "[2013年6月]").
	bracketDateRE = regexp.MustCompile(`\s*\[(?:\d{1,4}[-./年月日 ]){1,3}\d{0,4}[日]?\]|\s*\[\p{L}{3,10}\.?\s+\d{4}\]`)
	// weiboTagRE is a topic between two hashes ("#社交机器人#").
	weiboTagRE = regexp.MustCompile(`#[^#\s]{1,30}#`)
	// wikiEmphasisRE and wikiLinkRE are MediaWiki's '''bold''', ''italic''
	// and [[link]] / [[target|words]].
	wikiEmphasisRE = regexp.MustCompile(`'{2,3}([^'\n]{1,80}?)'{2,3}`)
	// phonemeStressRE is a stress mark in a phonetic alphabet's word
	// ("b'E:rn"), not an elision ("l'école").
	phonemeStressRE = regexp.MustCompile(`'\p{Lu}|[^\p{L}]'|^'`)
	wikiLinkRE      = regexp.MustCompile(`\[\[(?:[^\]|\n]{1,80}\|)?([^\]|\n]{1,80})\]\]`)
	// bbcodeRE is a forum's markup tag ("[b]", "[/url]", "[color=red]"):
	// the tag goes, its words stay.
	bbcodeRE = regexp.MustCompile(`(?i)\[/?(?:b|i|u|s|em|strong|url|img|quote|code|color|size|center|font)(?:=[^\]\n]{0,40})?\]`)
	// tildeRE is a tilde as decoration, not between two words or numbers
	// ("Hi ~ I'm Nadine ~", "很高兴见到你～"): a synthesizer says "tilde".
	tildeRE = regexp.MustCompile(`(^|\s)[~～〜]+|[~～〜]+(\s|$)|([\p{Han}!?.。！？，,])[~～〜]+|[~～〜]+([!?.,。！？，])`)
	// wideTildeRE is a full-width tilde drawn out between words, a pause
	// ("我是Nadine～很高兴见到你"): a comma.
	wideTildeRE = regexp.MustCompile(`～+([\p{Han}\p{L}])`)
	// trailBulletRE is a bullet that ends the text, a decoration's close.
	trailBulletRE = regexp.MustCompile(`[ \t]+[•▪◦‣∙・]+\s*$`)
	// inlineBulletRE is a bullet between words of a line, which
	// separates them as a comma does ("Nadine • a robot • from Geneva").
	inlineBulletRE = regexp.MustCompile(`([\p{L}\p{N}.)])[ \t]+[•·▪◦‣∙][ \t]+([\p{L}\p{N}(])`)
	// leadBulletRE is a bullet after a colon or a sentence's end, or before
	// a word glued to it ("Was ich mag: ◦ Menschen", "我喜欢：・聊天 ・音乐"):
	// the list's, not said.
	leadBulletRE = regexp.MustCompile(`([:：!?.！？。])[ \t]*[•·▪◦‣∙・][ \t]*|[ \t]+[•▪◦‣∙・]([\p{L}\p{N}])`)
	// shrugRE is the shrug drawn in signs ("¯\_(ツ)_/¯").
	shrugRE = regexp.MustCompile(`¯\\?_*\(ツ\)_*/?¯`)
	// faceRE is a face in parentheses drawn with a face's signs, letters of
	// other scripts among them ("(｡･ω･｡)", "(๑•̀ㅂ•́)"), and armsRE its arms
	// outside them ("ヽ", "ﾉ", "و") standing alone.
	faceRE = regexp.MustCompile(`[(（][^()（）\s]{0,4}[･・ω▽∀ᴗ‿◕ㅂ๑｡°ツ•][^()（）\s]{0,8}[)）][ﾉノو۶]?`)
	armsRE = regexp.MustCompile(`(^|\s)[ヽﾉノو٩۶づ⊂⊃ツ]+(\s|$)`)
	// bearRE is a face drawn between a bear's ears ("ʕ•ᴥ•ʔ").
	bearRE = regexp.MustCompile(`ʕ[^ʕʔ\s]{1,8}ʔ`)
	// strikeRE is text struck out ("I love ~~rain~~ sunshine!"): the
	// writer took it back, so it is not said.
	strikeRE = regexp.MustCompile(`~~[^~\n]{1,80}~~`)
	// citationRE is a citation mark ("[1]", "[2, 3]", "[^4]").
	// An inline footnote's caret goes with it ("people.^[1]").
	citationRE = regexp.MustCompile(`\s*\^?\[\^?\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\]`)
	// superscriptRE is a word set in superscript by its carets ("^people^").
	superscriptRE = regexp.MustCompile(`\^([\p{L}\p{N}][^\s^]{0,39})\^`)
	// escapedJoinRE is an underscore escaped between two words: a space.
	escapedJoinRE = regexp.MustCompile(`(\p{L})\\_(\p{L})`)
	// mdEscapeRE is a Markdown sign escaped to be shown as itself
	// ("\*waves\*"): the sign, then read as the markup it is.
	// A quote escaped as in a string literal ("Je m\'appelle") is the quote.
	mdEscapeRE = regexp.MustCompile(`\\([*_#\[\]()~>|'"` + "`" + `-])`)
	// escapeRE is a line break or a tab written as its escape ("\n"),
	// before anything but a small letter ("\n- sourire", "\nBonjour"):
	// "\theta" is not one (literalNewlineRE reads "\nje suis").
	// A run of them ("\\n\\n") is one break.
	escapeRE = regexp.MustCompile(`(?:\\{1,2}[nrt])+([^\p{Ll}]|$)`)
	// surrogatePairRE is a character outside the first plane written as
	// its two UTF-16 escapes ("\ud83d\ude0a").
	surrogatePairRE = regexp.MustCompile(`\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}`)
	// unicodeEscapeRE is a character written as its escape ("\u00e9"), or
	// past the first plane as Python and C write it ("\U0001F60A").
	unicodeEscapeRE = regexp.MustCompile(`\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})`)
	// closingTagRE is a markup tag's close, and attrTagRE a tag with
	// attributes or closed in itself ("<emotion=joie>", "<gesture name=wave/>",
	// "<pause/>"): never words. A bare "<Name>" is left to the placeholders.
	closingTagRE = regexp.MustCompile(`</[A-Za-z][\w.:-]{0,30}\s*>`)
	attrTagRE    = regexp.MustCompile(`<[A-Za-z][\w.:-]{0,30}(?:\s*[=:]\s*[^<>\s][^<>\n]{0,60}|\s+[\w.:-]+\s*=[^<>\n]{0,80}|\s*/)>`)
	// entityRE is an HTML entity the gate's unescaping left: a name written
	// in capitals ("&NBSP;") or none HTML knows. A synthesizer spells it.
	entityRE = regexp.MustCompile(`&(?:[A-Za-z][A-Za-z0-9]{1,30}|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});`)
	// bareEntityRE is an entity whose semicolon was left out ("&nbsp",
	// "&#160") or parted from it by a space ("& nbsp;").
	bareEntityRE = regexp.MustCompile(`&#[0-9]{1,7}\s+[0-9]{1,7};?|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,30})(?:\s+;|;?)|&\s+(?:[a-z]{2,8}|#[0-9]{1,7})\s*;`)
	// commentRE is an HTML comment.
	commentRE = regexp.MustCompile(`(?s)<!--.*?(?:-->|$)`)
	// emoticonRE is a face typed in signs (":)", ";-D", "^_^", "<3", "xD"),
	// which a synthesizer reads sign by sign.
	// A kiss is one star: ":**" closes a bold label ("**Nadine :**").
	// Faces drawn across an underscore (">_<", "T_T") and the cheering
	// arms ("\o/", "o/") are faces too.
	emoticonRE = regexp.MustCompile(`(^|[\s\p{Han}，。！？])(?:[:;=][-'’^o]?(?:[)(\]\[DPpOo/|3]+|\*)|8-[)D]|\([:;]|\^[_.-]?\^|(?:<\/?3+)+|[xX]D+|[><TOoX^=;-]_+[><TOoX^=;-]|[Oo]\.[Oo]|(?i:[uo]w[uo])|\\o/?|o/)([\s.,!?\p{Han}，。！？]|$)`)
	// gluedSmileRE is a face typed against the word before it
	// ("Enchantée:)", "Bonjour;-)", "voir:D", "J'<3"): never a word's part.
	gluedSmileRE = regexp.MustCompile(`([\p{L}'’])(?:[:;=][-'’^o]?[)(DP]+|<3+)([\s.,!?…]|$)`)
	// caretFaceRE is a face drawn with carets, in parentheses or with raised
	// arms ("(^o^)", "\^o^/"), read before a caret marks a superscript.
	caretFaceRE = regexp.MustCompile(`(^|[\s\p{Han}，。！？])<?[(（\\]?\^[\p{L}_.\-−ω▽]{0,2}\^[)）/]?>?`)
	// kaomojiRE is a face in parentheses drawn with signs alone ("(＾▽＾)").
	kaomojiRE = regexp.MustCompile(`[(（][^\p{L}\p{N}\s()（）]{2,12}[)）]`)
	// midStageRE is a span a stage direction can be written in anywhere in
	// a sentence; stageWordRE says whether it is one.
	// A star's direction hugs its words on one line: "* smile\n* wave" is
	// a list.
	midStageRE = regexp.MustCompile(`\s*(?:\(([^()]{1,40})\)|\[([^\[\]]{1,40})\]|\*([^*\s](?:[^*\n]{0,38}[^*\s])?)\*|~([^~]{1,40})~|<{1,2}([^<>/]{1,40})>{1,2}|\{([^{}]{1,40})\}|(?:^|\s)_([^_\s](?:[^_\n]{0,38}[^_\s])?)_|（([^（）]{1,20})）)`)
	// stageWordRE is what a stage direction says: an expression or a
	// gesture, with an adverb ("smiles warmly", "lächelt", "微笑").
	stageWordRE = regexp.MustCompile(`(?i)^(?:\p{L}+ly\s+)?(?:smil|laugh|wav|wink|nod|giggl|sigh|grin|chuckl|bow|blush|clap|beam|shrug|sourit|sourire|rit|rire|salue|rougit|clin d|hoche|soupir|lächel|lacht|lachen|winkt|zwinker|nickt|kicher|seufz|grins|verbeug)\p{L}*(?:\s+\p{L}+){0,2}$|^(?:笑|微笑|大笑|挥手|眨眼|点头|鞠躬|叹气|眨眨眼)$`)
	// footnoteRE is a footnote's number in superscript ("1989¹",
	// "sonnig¹"); "m²" and "km²" are units, read aloud: a unit's symbol
	// has one or two letters, a word that takes a footnote three or more.
	footnoteRE = regexp.MustCompile(`(^|[^\p{L}]|\p{L}{3})[¹²³⁴-⁹⁰]+`)
	// enumeratorRE is an item's number in a list written on one line
	// ("1. I can smile. 2. I can wave."), or its letter or roman numeral
	// ("a) la visite, b) l'atelier", "i. bonjour ii. merci").
	enumeratorRE = regexp.MustCompile(`(^|\s)\(?(\d{1,2}|[a-hA-H]|i{1,3}|iv|vi{0,3}|ix|I{1,3}|IV|VI{0,3}|IX)([.)/°]| ?-)\s+`)
	// speakerRE's decoration is any sign but a letter or a digit of any
	// script: RE2's \W is ASCII, and took the first character of a
	// Chinese reply after "Final Answer: " for decoration.
	speakerRE = regexp.MustCompile(`(?i)^[^\p{L}\p{N}_]{0,3}(?:` + SpeakerNames + `|response|reply|answer|final answer|output|réponse|reponse|antwort|回复|回答|答复)(?:\s*[(（][^)）]{0,40}[)）])?(?:\s+(?:says|said|replies|answers|dit|répond|sagt|antwortet))?\s*[^\p{L}\p{N}_:：]{0,3}[:：][^\p{L}\p{N}_]{0,2}\s*`)
	jsonKeyRE = regexp.MustCompile(`[{,]\s*"[^"\n]{1,60}"\s*:\s*(?:"|\{|\[|-?\d|true\b|false\b|null\b)`)
	codeRE    = regexp.MustCompile(`[{}]|</|/>|:=|=>|\(\);|&&|\|\||==|\b[a-z_][a-z0-9_.]*\(['"\d)]|^\s*(?:def|func|class|import|package|function|#include|SELECT|public|private|return)\s`)
)

// PictureExt are the endings of a picture's file: a link to one is a
// picture, its words a caption.
const PictureExt = `(?i:png|jpe?g|gif|svg|webp|bmp|avif)`

// SpeakerNames are the names the reply's speaker goes by when a model
// writes its reply as a transcript's line, in Nadine's four languages
// ("Nadine:", "Assistent:", "Robote :", "机器人：").
const SpeakerNames = `nadine|assistant|assistante|assistent|assistentin|ai|ia|ki|bot|robot|robote|roboter|roboterin|助手|机器人|人工智能`

// quotePairs are the quotation marks a model may wrap its whole reply in.
var quotePairs = [...][2]string{
	{`"""`, `"""`}, {`'''`, `'''`}, // a docstring's
	{`"`, `"`}, {`'`, `'`}, {"“", "”"}, {"‘", "’"}, {"«", "»"}, {"»", "«"},
	{"„", "“"}, {"„", "”"}, {"‹", "›"}, {"「", "」"}, {"『", "』"}, {"`", "`"},
}

// StripThinking removes the reasoning blocks (<think>…</think> and kin)
// that reasoning models write before their answer, closed or not.
func StripThinking(text string) string {
	s := text
	if strings.Contains(s, "◁") {
		s = shapeThinkRE.ReplaceAllString(s, "<$1>")
	}
	for {
		loc := thinkOpenRE.FindStringSubmatchIndex(s)
		if loc == nil {
			break
		}
		tag := strings.ToLower(s[loc[2]:loc[3]])
		rest := s[loc[1]:]
		end := strings.Index(ASCIILower(rest), "</"+tag+">")
		if end < 0 {
			s = s[:loc[0]]
			break
		}
		s = s[:loc[0]] + " " + rest[end+len(tag)+3:]
	}
	for _, tag := range []string{"</think>", "</thinking>", "</reasoning>", "</reflection>"} {
		if i := strings.LastIndex(ASCIILower(s), tag); i >= 0 {
			s = s[i+len(tag):]
		}
	}
	return s
}

// ASCIILower lowercases ASCII letters only, so byte offsets in the result
// are offsets in s (strings.ToLower can change the length).
func ASCIILower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Clean returns text as plain spoken sentences, markup, Markdown, emoji and
// wrapping removed; it does not judge whether the result is a reply (Reply).
func Clean(text string) string {
	// Peeling one layer can bare another ("\"# Hello\"" loses its quotes,
	// then its heading mark): clean until nothing changes.
	return untilStable(text, 9, cleanOnce)
}

// untilStable applies f to s until it changes nothing, at most n times.
func untilStable(s string, n int, f func(string) string) string {
	for range n {
		t := f(s)
		if t == s {
			break
		}
		s = t
	}
	return s
}

// cleanOnce is one pass of Clean.
func cleanOnce(text string) string {
	s := StripThinking(text)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, " ")
	}
	if strings.Count(s, "```")%2 == 1 {
		s = unclosedProseFence(s)
	}
	s = fenceBlockRE.ReplaceAllString(s, " ")
	s = EarlyForms(s)
	if strings.Contains(s, "/me ") {
		s = withoutChatActions(s)
	}
	s = documentForms(s)
	s = writtenForms(s)
	if strings.Contains(s, `"""`) || strings.Contains(s, "'''") {
		s = strings.NewReplacer(`"""`, "", "'''", "").Replace(s) // a docstring's quotes
	}
	s = imageRE.ReplaceAllString(s, " ")
	if strings.Contains(s, "](") {
		s = linkAloneRE.ReplaceAllString(s, "$1")
	}
	s = linkRE.ReplaceAllString(s, "$1")
	s = speechURLRE.ReplaceAllString(s, "")
	s = specialRE.ReplaceAllString(s, " ")
	s = structureRE.ReplaceAllString(s, " ")
	s = inlineTagRE.ReplaceAllString(s, " ")
	s = markupAsSigns(s)
	s = joinLines(inlineEnumerators(s))
	s = strings.TrimSpace(s)
	if loc := speakerRE.FindStringIndex(s); loc != nil {
		// A speaker's label, then a stage direction ("Nadine : *fait un
		// signe* Bonjour"): the direction opens the line the label names.
		// The label's match may take the direction's first sign.
		end := strings.LastIndex(s[:loc[1]], ":") + len(":")
		if i := strings.LastIndex(s[:loc[1]], "："); i >= 0 {
			end = max(end, i+len("："))
		}
		if rest := strings.TrimSpace(s[end:]); end > 0 && stageRE.MatchString(rest) {
			s = rest
		}
	}
	s = stageRE.ReplaceAllString(s, "")
	if strings.Contains(s, "~~") {
		s = strikeRE.ReplaceAllString(s, "")
	}
	s = boldRE.ReplaceAllString(s, "$1$2")
	s = italicRE.ReplaceAllString(s, "$1$2$3")
	s = WithoutEdgeCode(s)
	s = strings.NewReplacer("`", "", "*", "", "~~", "").Replace(s)
	if strings.ContainsRune(s, 0x20E3) {
		s = enclosingCapRE.ReplaceAllString(s, "") // "1️⃣": a list's number drawn as an emoji
	}
	if strings.Contains(s, "Nadine") {
		s = signatureRE.ReplaceAllString(s, "")
	}
	if strings.ContainsAny(s, "·・･") {
		// Middle dots in a run are an ellipsis ("Nadine··· a robot").
		s = dotsRunRE.ReplaceAllString(s, "…")
	}
	if strings.Contains(s, "[") {
		// A date in square brackets is a note's stamp, not words said.
		s = bracketDateRE.ReplaceAllString(s, "")
	}
	if strings.Contains(s, "#") {
		// A hashtag is a post's label, not words said: "#MIRALab
		// #SocialRobots", Weibo's "#社交机器人#".
		s = hashtagRE.ReplaceAllString(weiboTagRE.ReplaceAllString(s, ""), "$1")
	}
	if strings.Contains(s, "''") || strings.Contains(s, "[[") {
		// Wiki markup: '''bold''' and ''italic'' keep their words, a wiki
		// link its shown words ("[[Geneva]]", "[[page|words]]").
		s = wikiLinkRE.ReplaceAllStringFunc(wikiEmphasisRE.ReplaceAllString(s, "$1"), func(m string) string {
			words := wikiLinkRE.FindStringSubmatch(m)[1]
			if !strings.Contains(words, " ") && (strings.Contains(words, ":") || phonemeStressRE.MatchString(words)) {
				return " " // a voice's phonemes ("[[b'E:rn]]"), not a page's name
			}
			return words
		})
	}
	s = strings.Map(func(r rune) rune {
		switch {
		case enclosed(r): // a list's numbers and letters drawn in a circle or a bracket ("①", "⑴", "⒈", "Ⓐ", "❶"): a list's, not said
			return -1
		case r == '※' || r == '†' || r == '‡' || r == '¶' || r == '§': // a note's or a section's sign, read by its name
			return -1
		case r >= 0x1D400 && r <= 0x1D7FF: // letters styled as mathematics ("𝐇𝐞𝐥𝐥𝐨"): the letter
			return []rune(norm.NFKC.String(string(r)))[0]
		case r >= 0xFF10 && r <= 0xFF19, r >= 0xFF21 && r <= 0xFF3A, r >= 0xFF41 && r <= 0xFF5A: // full-width Latin: the letter
			return r - 0xFEE0
		case r == 0x0332 || r == 0x0333 || r >= 0x0334 && r <= 0x0338 || r == 0x0305 || r >= 0x035C && r <= 0x0362 || r >= 0x20D0 && r <= 0x20F0: // underline, strike and circles drawn by combining marks
			return -1
		case r == 0x2027: // a dictionary's hyphenation point ("ro‧bot"): the word whole
			return -1
		case r >= 0x2500 && r <= 0x259F: // box drawing and blocks ("═══"); shapes such as ◁think▷ are a template's
			return -1
		case isEmoji(r), r >= 0x2190 && r <= 0x21FF, r >= 0x27F0 && r <= 0x27FF, r >= 0x2900 && r <= 0x297F, unicode.Is(unicode.Cf, r), unicode.Is(unicode.Co, r): // arrows too, the long and supplemental ones
			return -1
		case r == '™' || r == '®' || r == '©': // a mark of the brand, not a word
			return -1
		case unicode.IsControl(r):
			return ' '
		}
		return r
	}, s)
	if strings.ContainsAny(s, "([{（") {
		s = emptyBracketsRE.ReplaceAllString(s, "") // what held an emoji ("[😊]")
	}
	s = strings.Join(strings.Fields(s), " ")
	if strings.Contains(s, " ,") || strings.Contains(s, " .") {
		// What went from before a comma or a full stop leaves no space
		// ("I love people 💖." is "I love people."); French spaces only
		// the high signs.
		s = spaceBeforeMarkRE.ReplaceAllString(s, "$1$2")
	}
	return untilStable(s, 4, stripWrapping) // «Nadine: "Hello"» and the like
}

// emptyBracketsRE is a pair of brackets left with nothing inside.
var emptyBracketsRE = regexp.MustCompile(`\(\s*\)|\[\s*\]|\{\s*\}|（\s*）`)

// spaceBeforeMarkRE is a space before a comma or a full stop that ends a
// word's run ("people .", "Nadine ,"), not an ellipsis or a number (".5").
var spaceBeforeMarkRE = regexp.MustCompile(`[ \t]+([,.])(\s|$)`)

// smallCaps are letters styled as small capitals ("ɴᴀᴅɪɴᴇ"), which no
// normalization folds: the letter.
var smallCaps = strings.NewReplacer("ᴀ", "a", "ʙ", "b", "ᴄ", "c", "ᴅ", "d", "ᴇ", "e", "ꜰ", "f", "ɢ", "g", "ʜ", "h", "ɪ", "i", "ᴊ", "j", "ᴋ", "k", "ʟ", "l", "ᴍ", "m", "ɴ", "n", "ᴏ", "o", "ᴘ", "p", "ʀ", "r", "ꜱ", "s", "ᴛ", "t", "ᴜ", "u", "ᴠ", "v", "ᴡ", "w", "ʏ", "y", "ᴢ", "z")

// writtenForms reads what a screen's writing adds to the words: text
// decoded as the wrong charset, code points, letters styled as small
// capitals or circled, a chat's custom emoji, a note's label,
// laughter abbreviated, a mail client's footer.
func writtenForms(s string) string {
	if strings.ContainsAny(s, "ÃÂâð") {
		// "à" read as Windows-1252 is "Ã" and a no-break space, which
		// splits words: joined first.
		s = withoutMojibake(strings.ReplaceAll(strings.ReplaceAll(s, "Ã\u00a0", "à"), "Ã ", "à "))
	}
	if strings.Contains(s, "\\") {
		s = strayBackslashRE.ReplaceAllString(s, "$1$2") // "Nadine\\ robot": an escape's remains
	}
	if strings.Contains(s, "U+") || strings.Contains(s, `\u{`) {
		s = codePointRE.ReplaceAllStringFunc(s, func(m string) string {
			sub := codePointRE.FindStringSubmatch(m)
			n, err := strconv.ParseUint(sub[1]+sub[2], 16, 32)
			if err != nil || n > unicode.MaxRune || utf16.IsSurrogate(rune(n)) {
				return ""
			}
			return string(rune(n))
		})
	}
	if strings.Contains(s, "=") {
		s = quotedPrintableRE.ReplaceAllStringFunc(s, func(m string) string {
			u, err := url.PathUnescape(strings.ReplaceAll(m, "=", "%"))
			if err != nil || !utf8.ValidString(u) {
				return m
			}
			return u
		})
	}
	if strings.ContainsFunc(s, func(r rune) bool {
		return r >= 0x1D00 && r <= 0x1D2B || r >= 0x0262 && r <= 0x029F || r == 'ꜰ' || r == 'ꜱ'
	}) {
		s = smallCaps.Replace(s)
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r >= 0x24B6 && r <= 0x24E9 }) {
		in := []rune(s)
		circled := func(i int) bool { return i >= 0 && i < len(in) && in[i] >= 0x24B6 && in[i] <= 0x24E9 }
		out := slices.Clone(in)
		for i, r := range in {
			if circled(i) && (circled(i-1) || circled(i+1)) {
				out[i] = []rune(norm.NFKC.String(string(r)))[0] // a word's letters circled: the letters; one alone is a list's mark
			}
		}
		s = string(out)
	}
	if strings.Contains(s, "<") {
		s = discordEmojiRE.ReplaceAllString(s, " ")
	}
	if strings.ContainsAny(s, "SBRs") {
		s = noteLabelRE.ReplaceAllString(s, "$1")
	}
	s = chatLaughRE.ReplaceAllString(s, "$1$2")
	return mailFooterRE.ReplaceAllString(s, "")
}

// withoutMojibake repairs words whose UTF-8 was read as Windows-1252
// ("EnchantÃ©e", "mâ€™appelle"): each such word, written back in that
// charset, is valid UTF-8.
func withoutMojibake(s string) string {
	enc := charmap.Windows1252.NewEncoder()
	fields := strings.Fields(s)
	changed := false
	for i, f := range fields {
		if !strings.ContainsAny(f, "ÃÂâð") {
			continue
		}
		b, err := enc.Bytes([]byte(f))
		if err != nil || !utf8.Valid(b) || string(b) == f {
			continue
		}
		fields[i], changed = string(b), true
	}
	if changed {
		s = strings.Join(fields, " ")
	}
	if strings.Contains(s, "ðŸ") {
		s = brokenEmojiRE.ReplaceAllString(s, "") // an emoji's bytes cut short: nothing to repair
	}
	return s
}

// brokenEmojiRE is what is left of an emoji read in the wrong charset and
// cut short ("ðŸ‘‹ðŸ").
var brokenEmojiRE = regexp.MustCompile(`ðŸ[^\s\p{L}\p{N}]{0,2}`)

// emphasizedItemRE is a list's item that is one span in emphasis ("-
// *sourire*", "2. **saluer**"): the item's words, not a stage direction.
var emphasizedItemRE = regexp.MustCompile(`(?m)^([ \t]*(?:[-*•+–—]|\d{1,2}[.)])[ \t]+)(?:\*{1,2}|_{1,2})([^*_\n]{1,40}?)(?:\*{1,2}|_{1,2})([ \t]*[.,;!]?[ \t]*)$`)

// markupAsSigns removes what a synthesizer would read sign by sign: comments,
// escapes, stage directions, faces, footnotes, citation marks, shortcodes.
// Each expression runs only when its signs are there: every sentence
// spoken is cleaned several times.
func markupAsSigns(s string) string {
	if strings.Contains(s, "<!--") {
		s = commentRE.ReplaceAllString(s, " ")
	}
	if strings.Contains(s, ">") {
		s = asciiArrowRE.ReplaceAllString(s, " ") // after the comments, whose close is one
	}
	if strings.Contains(s, "&") {
		s = entities(s)
	}
	if strings.Contains(s, `\`) {
		// A surrogate pair written as two escapes is one character
		// ("\ud83d\ude0a"); a lone surrogate is none.
		s = surrogatePairRE.ReplaceAllStringFunc(s, func(m string) string {
			hi, _ := strconv.ParseUint(m[2:6], 16, 32)
			lo, _ := strconv.ParseUint(m[8:12], 16, 32)
			if r := utf16.DecodeRune(rune(hi), rune(lo)); r != utf8.RuneError {
				return string(r)
			}
			return ""
		})
		s = unicodeEscapeRE.ReplaceAllStringFunc(s, func(m string) string {
			n, err := strconv.ParseUint(m[2:], 16, 32)
			if err != nil || utf16.IsSurrogate(rune(n)) || n > unicode.MaxRune {
				return ""
			}
			return string(rune(n))
		})
		s = byteEscapesRE.ReplaceAllStringFunc(s, func(m string) string {
			b := make([]byte, 0, len(m)/4)
			for i := 0; i+4 <= len(m); i += 4 {
				n, _ := strconv.ParseUint(m[i+2:i+4], 16, 8)
				b = append(b, byte(n))
			}
			if utf8.Valid(b) {
				return string(b)
			}
			return ""
		})
		s = literalNewlineRE.ReplaceAllStringFunc(s, func(m string) string {
			if texNCommands[m[2:]] {
				return m // TeX's "\noindent", "\neq"
			}
			return "\n" + m[2:] // a line break written as an escape ("Bonjour,\\nje suis")
		})
		s = texSymbolRE.ReplaceAllString(texCommandRE.ReplaceAllString(s, "$1"), "")
		s = escapeRE.ReplaceAllString(s, "\n$1")
		s = escapedJoinRE.ReplaceAllString(s, "$1 $2") // "Nadine\\_Roboter": not a name in code
		s = mdEscapeRE.ReplaceAllString(s, "$1")
		s = texBareRE.ReplaceAllString(s, " ")
	}
	if strings.Contains(s, "%") {
		s = percentTokenRE.ReplaceAllStringFunc(s, func(m string) string {
			if u, err := url.PathUnescape(m); err == nil && utf8.ValidString(u) {
				return u // a text sent percent-encoded ("Bonjour%20!%20Je%20suis")
			}
			return m
		})
		s = percentBytesRE.ReplaceAllStringFunc(s, func(m string) string {
			if u, err := url.PathUnescape(m); err == nil && utf8.ValidString(u) {
				return u
			}
			return m
		})
	}
	s = withoutTags(s)
	if strings.ContainsAny(s, "<>[") {
		s = withoutBrokenTags(s)
	}
	if strings.Contains(s, "=\"") || strings.Contains(s, "='") {
		s = attributesRE.ReplaceAllString(s, " ") // a tag's attributes, its brackets lost
		s = leadAttributeRE.ReplaceAllString(s, "$1")
	}
	// Before the faces each has a rule for: the mechanism takes a face
	// with its arms ("d(^_^)b").
	s = withoutDrawings(s)
	if strings.Contains(s, "^") {
		s = caretFaceRE.ReplaceAllString(s, "$1")
		s = strings.NewReplacer("^_^", " ", "^-^", " ", "^.^", " ").Replace(s) // a face glued to its word ("Nadine^_^")
		s = strings.ReplaceAll(s, "^^", "")                                    // a smile glued to its word ("Hello^^")
		s = superscriptRE.ReplaceAllString(s, "$1")
	}
	if strings.ContainsAny(s, "([*~<（{_") {
		if strings.ContainsAny(s, "*_") && strings.Contains(s, "\n") {
			s = emphasizedItemRE.ReplaceAllString(s, "$1$2$3") // "- *sourire*" is the item's word, no direction
		}
		s = midStageRE.ReplaceAllStringFunc(s, func(m string) string {
			inner := strings.TrimSpace(strings.Trim(strings.TrimSpace(m), "()[]*~<>{}_（）"))
			if stageWordRE.MatchString(inner) || gestureAside(inner) || pageAside(inner) {
				if strings.HasPrefix(strings.TrimSpace(m), "（") {
					return "" // between ideographs, which take no space
				}
				return " "
			}
			return m
		})
		s = kaomojiRE.ReplaceAllString(s, " ")
	}
	if strings.ContainsAny(s, ":;=^<_/\\(xXwW") || strings.Contains(s, ".O") || strings.Contains(s, ".o") {
		s = untilStable(s, 3, func(x string) string { return emoticonRE.ReplaceAllString(x, "$1$2") })
		s = gluedSmileRE.ReplaceAllString(s, "$1$2")
	}
	if strings.ContainsAny(s, "¹²³⁴⁵⁶⁷⁸⁹⁰") {
		s = footnoteBodyRE.ReplaceAllString(s, "")
		s = footnoteRE.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "[") {
		s = citationRE.ReplaceAllString(s, "")
	}
	if strings.Contains(s, ":") {
		s = shortcodeRE.ReplaceAllString(s, "$1")
		s = shortcodeGluedRE.ReplaceAllString(s, "$1$2")
	}
	if strings.Contains(s, "[") {
		s = noteFieldRE.ReplaceAllString(bbcodeRE.ReplaceAllString(s, ""), "")
	}
	if strings.Contains(s, "++") {
		s = insertRE.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "<<") {
		s = asciiGuillemetsRE.ReplaceAllString(s, "« $1 »")
	}
	if strings.Contains(s, "==") {
		s = highlightRE.ReplaceAllStringFunc(s, func(m string) string {
			inner := m[2 : len(m)-2]
			if strings.HasSuffix(inner, ":") || strings.HasSuffix(inner, "：") {
				return " " // a badge's label ("==小知识：==")
			}
			return inner
		})
	}
	if strings.ContainsAny(s, "•·▪◦‣∙・") {
		s = trailBulletRE.ReplaceAllString(s, "")
		s = leadBulletRE.ReplaceAllString(s, "$1 $2")
		s = inlineBulletRE.ReplaceAllString(s, "$1, $2")
	}
	if strings.ContainsAny(s, "¯ツω▽∀ᴗ‿◕ㅂ๑｡°•ヽﾉノو٩۶づ⊂⊃ʕ") {
		s = bearRE.ReplaceAllString(shrugRE.ReplaceAllString(s, ""), "")
		s = faceRE.ReplaceAllString(s, "")
		s = armsRE.ReplaceAllString(s, "$1")
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r >= 0x25A0 && r <= 0x25FF }) {
		s = shapeBulletRE.ReplaceAllString(s, "$1$2")
	}
	if strings.ContainsAny(s, "~～〜") && !strings.Contains(s, "~~") {
		s = tildeRE.ReplaceAllString(wideTildeRE.ReplaceAllString(s, "，$1"), "$1$2$3$4")
	}
	if strings.ContainsAny(s, "0123456789") {
		s = withoutNumberReadings(s)
	}
	return s
}

// literalNewlineRE is a line break written as an escape before a word in
// lower case; texNCommands are TeX's commands it could be.
var (
	literalNewlineRE = regexp.MustCompile(`\\n\p{Ll}+`)
	texNCommands     = map[string]bool{"ewline": true, "oindent": true, "abla": true, "eq": true, "eg": true, "i": true, "u": true, "atural": true, "earrow": true, "ewpage": true, "obreak": true, "olinebreak": true, "ormalsize": true, "ot": true, "otin": true, "ewcommand": true, "exists": true, "parallel": true, "leq": true, "geq": true, "subseteq": true}
)

// usualEntities are the entities a reply in English, French or German is
// written with; a name cut short is the start of one of them.
var usualEntities = strings.Fields("nbsp amp quot apos eacute egrave ecirc euml agrave acirc auml ccedil icirc iuml ocirc ouml oelig ucirc ugrave uuml szlig laquo raquo hellip mdash ndash rsquo lsquo rdquo ldquo bdquo copy trade euro middot bull thinsp ensp emsp shy")

// cutEntity reports a name of three letters or more that only starts one
// of the usual entities ("nbs", "eacut"), none whole.
func cutEntity(name string) bool {
	if len(name) < 3 {
		return false
	}
	for _, e := range usualEntities {
		if e == name {
			return false
		}
		if strings.HasPrefix(e, name) {
			return true
		}
	}
	return false
}

// Entities reads a text's HTML entities as a browser would, escaped once
// or twice, and as a model damages them: in capitals, without their
// semicolon, spaced, cut short ("&nbs", "& nbsp ;", "&#12 8522;").
func Entities(s string) string {
	for range 2 {
		if !strings.Contains(s, "&") {
			break
		}
		s = entities(s)
	}
	return s
}

// entities is one pass of Entities.
func entities(s string) string {
	s = entityRE.ReplaceAllStringFunc(s, func(m string) string {
		if u := html.UnescapeString(m); u != m {
			return u // as written: "&NotEqual;" is not "&not" and "Equal;"
		}
		if u := html.UnescapeString(strings.ToLower(m)); u != strings.ToLower(m) && !strings.HasSuffix(u, ";") {
			return u // in capitals ("&NBSP;")
		}
		return " "
	})
	return withoutCutEntity(bareEntityRE.ReplaceAllStringFunc(s, bareEntity))
}

// bareEntity reads an entity written without its semicolon, or one that
// decoding an escaped ampersand made: what HTML reads it as ("&nbsp" is a space, "&hellip" an ellipsis), nothing for a
// number no character has; a name HTML does not know is words ("R&D").
func bareEntity(m string) string {
	m = strings.Join(strings.Fields(m), "")
	if name := strings.TrimSuffix(m[1:], ";"); len(name) >= 2 && !strings.HasPrefix(name, "#") && cutEntity(name) {
		return "" // an entity cut short ("&nbs", "&eacut ;")
	}
	if u := html.UnescapeString(m); u != m || strings.HasSuffix(m, ";") {
		// Whole, it is one an escaped ampersand left ("&amp;lt;" is "&lt;").
		return u
	}
	if name := m[1:]; strings.ToLower(name) == name && !strings.HasPrefix(name, "#") {
		if u := html.UnescapeString(m + ";"); u != m+";" {
			return u
		}
	}
	if strings.HasPrefix(m, "&#") {
		return " "
	}
	return m
}

// withoutTags removes markup's tags that are never words: a close, the
// open tag it closes, and a tag with attributes or closed in itself.
func withoutTags(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	for _, m := range closingTagRE.FindAllString(s, -1) {
		name := strings.TrimSpace(m[2 : len(m)-1])
		s = strings.ReplaceAll(s, "<"+name+">", " ")
	}
	s = declarationRE.ReplaceAllString(s, " ")
	s = wbrRE.ReplaceAllString(s, "") // a place a word may break, inside the word
	s = htmlTagRE.ReplaceAllStringFunc(s, func(m string) string {
		name := htmlTagRE.FindStringSubmatch(m)[1]
		if titleCase := unicode.IsUpper(rune(name[0])) && strings.ToUpper(name) != name; titleCase {
			return m // "<Name>" is a placeholder, left to the gate
		}
		if htmlElements[strings.ToLower(name)] {
			return " " // HTML's own name, however spaced ("< br >", "</ b>", "<hr>")
		}
		return m
	})
	return attrTagRE.ReplaceAllString(closingTagRE.ReplaceAllString(s, " "), " ")
}

// htmlTagRE is a tag with no attributes, spaces allowed inside it; it is a
// tag when its name is one HTML defines (htmlElements).
var htmlTagRE = regexp.MustCompile(`<\s*/?\s*([A-Za-z][A-Za-z0-9]{0,15})\s*/?\s*>`)

// htmlElements are the names of HTML's elements, from the standard's index
// of elements, with the obsolete ones models still write ("<center>",
// "<font>", "<tt>").
var htmlElements = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`a abbr address area article aside audio b base bdi bdo blockquote body br button
		canvas caption cite code col colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset
		figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label
		legend li link main map mark menu meta meter nav noscript object ol optgroup option output p param picture
		pre progress q rp rt ruby s samp script search section select slot small source span strong style sub
		summary sup table tbody td template textarea tfoot th thead time title tr track u ul var video wbr
		acronym big blink center font marquee nobr strike tt`) {
		m[n] = true
	}
	return m
}()

// Tags that lost a bracket: a close with no "<" ("/strong>Les toilettes"),
// a void tag with no ">" ("patience.<br/ Je vais"), a tag or a picture cut
// off at the end of the reply ("…heures.</div", "![sour").
var (
	openlessCloseRE = regexp.MustCompile(`(^|[\s.!?,;:])/([A-Za-z][A-Za-z0-9]{0,10})>`)
	closelessVoidRE = regexp.MustCompile(`(?i)<\s*(?:br|hr|wbr)\s*/?(?:\s|$)`)
	cutTagRE        = regexp.MustCompile(`(?:</?[A-Za-z]{0,10}|!?\[[^\]\n]{0,60})\s*$`)
)

// withoutBrokenTags removes tags that lost a bracket on the way.
func withoutBrokenTags(s string) string {
	s = openlessCloseRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := openlessCloseRE.FindStringSubmatch(m)
		if !htmlElements[strings.ToLower(sub[2])] {
			return m
		}
		return sub[1] + " "
	})
	s = closelessVoidRE.ReplaceAllString(s, " ")
	if loc := cutTagRE.FindStringIndex(s); loc != nil && (loc[0] > 0 || strings.HasPrefix(s, "<")) {
		s = s[:loc[0]] // a piece of a tag, alone when a stream cut it off ("</str")
	}
	return s
}

// withoutCutEntity removes an entity cut off with the reply ("… minutes.
// &nb"): the start of a usual one at the end.
func withoutCutEntity(s string) string {
	if m := cutEntityEndRE.FindStringSubmatchIndex(s); m != nil && m[0] > 0 {
		if name := s[m[2]:m[3]]; slices.ContainsFunc(usualEntities, func(e string) bool { return strings.HasPrefix(e, name) }) {
			return s[:m[0]]
		}
	}
	return s
}

// cutEntityEndRE is an entity's start at the end of the reply.
var cutEntityEndRE = regexp.MustCompile(`&([a-z]{1,8})\s*$`)

// wbrRE is HTML's word-break opportunity ("vien<wbr>nent").
var wbrRE = regexp.MustCompile(`(?i)<\s*wbr\s*/?\s*>`)

// HTMLElement reports a name of HTML's elements ("b", "br", "section"),
// however it is written, a closing or self-closing slash aside ("/b",
// "br/").
func HTMLElement(name string) bool {
	return htmlElements[strings.ToLower(strings.TrimSpace(strings.Trim(strings.TrimSpace(name), "/")))]
}

// declarationRE is a document's declaration or processing instruction
// ("<!DOCTYPE html>", "<?xml version=\"1.0\"?>").
var declarationRE = regexp.MustCompile(`<![A-Za-z][^<>\n]{0,80}>|<\?[A-Za-z][^<>\n]{0,80}\?>`)

// gestureWords are the body's parts and the gestures a stage direction
// names ("fait un petit signe de la main", "lève les bras au ciel",
// "macht eine kleine Verbeugung"): its verb may be any.
var gestureWords = map[string]bool{
	"hand": true, "hands": true, "head": true, "arm": true, "arms": true, "eyes": true, "eye": true, "shoulders": true, "bow": true, "thumbs": true, "wink": true, "nod": true, "wave": true,
	"main": true, "mains": true, "tête": true, "bras": true, "yeux": true, "œil": true, "oeil": true, "épaules": true, "signe": true, "révérence": true, "clin": true, "pouce": true, "pouces": true,
	"hände": true, "kopf": true, "arme": true, "augen": true, "auge": true, "schultern": true, "verbeugung": true, "daumen": true, "knicks": true,
}

// personWords mark an aside said by someone or to someone, which no stage
// direction is ("(je vous le promets)", "(you'll see)").
var personWords = map[string]bool{
	"i": true, "me": true, "my": true, "you": true, "your": true, "je": true, "j": true, "moi": true, "tu": true, "vous": true, "ich": true, "mich": true, "mir": true, "du": true, "dich": true, "dir": true, "sie": true,
}

// pageWords name what only a page has: its typography, its parts, a
// medium shown on it, and the pauses and delivery a script marks. She has
// no page, and her voice takes no directions from her words.
var pageWords = map[string]bool{
	"bold": true, "italic": true, "italics": true, "underlined": true, "strikethrough": true, "emoji": true, "emoticon": true, "smiley": true, "image": true, "picture": true, "photo": true, "video": true, "audio": true, "gif": true, "icon": true, "table": true, "figure": true, "footnote": true, "below": true, "above": true, "bullet": true, "bullets": true, "pause": true, "silence": true,
	"gras": true, "italique": true, "souligné": true, "barré": true, "émoji": true, "émoticône": true, "vidéo": true, "icône": true, "tableau": true, "ci-dessous": true, "ci-dessus": true, "puces": true, "légende": true, "encadré": true, "annexe": true,
	"fett": true, "kursiv": true, "unterstrichen": true, "durchgestrichen": true, "bild": true, "foto": true, "tabelle": true, "abbildung": true, "fußnote": true, "unten": true, "oben": true, "stille": true,
	// How a voice engine is to say it: a breath, music, a break, a tone,
	// a pronunciation.
	// What a transcriber or a chat marks: a word not heard, a noise, an
	// edit ("[inaudible]", "<unk>", "(edited)").
	"inaudible": true, "incompréhensible": true, "unverständlich": true, "unk": true, "noise": true, "bruit": true, "geräusch": true, "hesitation": true, "hésitation": true, "laughter": true, "rires": true, "lachen": true, "applause": true, "applaudissements": true, "crosstalk": true, "edited": true, "bearbeitet": true,
	"breath": true, "breathes": true, "music": true, "musique": true, "fades": true, "break": true, "long-break": true, "tone": true, "ton": true, "voix": true, "voice": true, "whisper": true, "whispers": true, "whispering": true, "chuchote": true, "chuchotant": true, "murmure": true, "prononcez": true, "prononcer": true, "pronounced": true, "pronounce": true, "ausgesprochen": true, "sprich": true, "atmet": true, "flüstert": true, "stimme": true, "musik": true,
}

// chatCodes are the emoticons a chat writes as a word in parentheses
// (Skype, Teams: "(y)", "(heart)").
var chatCodes = map[string]bool{"y": true, "n": true, "heart": true, "like": true, "hug": true, "kiss": true, "party": true, "cool": true, "clap": true, "wink": true, "sad": true, "cry": true, "lol": true, "rofl": true, "facepalm": true, "highfive": true, "inlove": true, "tongueout": true}

// pageAside reports an aside of a few words that points at the page or
// at a medium shown on it, or marks a pause ("(en gras)", "(voir
// ci-dessous)", "[image]", "[emoji cœur]", "(pause de 2 secondes)"); no one
// speaks in it.
func pageAside(inner string) bool {
	ws := strings.FieldsFunc(strings.ToLower(inner), func(r rune) bool { return !unicode.IsLetter(r) && r != '-' && r != 'œ' })
	if len(ws) == 0 || len(ws) > 4 {
		return false
	}
	page := false
	for _, w := range ws {
		if personWords[w] {
			return false
		}
		page = page || pageWords[w] || (w == "note" || w == "notes" || w == "liste" || w == "list") && len(ws) > 1
	}
	return page || len(ws) == 1 && chatCodes[ws[0]]
}

// gestureAside reports an aside that tells a gesture: a few words in lower
// case, with no one speaking or spoken to, naming a part of the body, a
// gesture or an expression anywhere among them ("petit rire", "en
// souriant").
func gestureAside(inner string) bool {
	r, _ := utf8.DecodeRuneInString(inner)
	if !unicode.IsLower(r) {
		return false
	}
	ws := strings.FieldsFunc(strings.ToLower(inner), func(r rune) bool { return !unicode.IsLetter(r) && r != 'œ' })
	if len(ws) == 0 || len(ws) > 8 {
		return false
	}
	body := false
	for _, w := range ws {
		if personWords[w] {
			return false
		}
		body = body || gestureWords[w] || stageWordRE.MatchString(w) || strings.HasPrefix(w, "souri") || strings.HasPrefix(w, "lächel")
	}
	return body
}

// joinLines turns Markdown lines into running text; an unpunctuated line
// gets a full stop when more follows, so list items become sentences.
func joinLines(s string) string {
	if !strings.ContainsAny(s, "\n\r") {
		s = strings.TrimSpace(s)
		if strings.Count(s, "|") >= 2 {
			s = cellsJoined(s) // a row of cells in a line of prose ("… : | joie | calme |")
		}
		s = captionLeadRE.ReplaceAllString(s, "")
		return bulletRE.ReplaceAllString(headingRE.ReplaceAllString(quoteLineRE.ReplaceAllString(inlineDashItems(s), ""), ""), "")
	}
	var parts []string
	var items []bool // parts that are a list's items
	lines := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	marks := sharedMarks(lines)
	heading := loneStarHeading(lines)
	for i, line := range lines {
		if i == heading {
			continue
		}
		l := strings.TrimSpace(line)
		if fieldLineRE.MatchString(l) || cueFieldRE.MatchString(l) || admonitionTypeRE.MatchString(l) || captionLineRE.MatchString(l) && (!endsSentence(l) || i+1 < len(lines)) {
			// A record's field on its own line ("humeur: joyeuse"), a
			// page's caption or title ("Tableau 1 : Mes langues").
			continue
		}
		if i+1 < len(lines) && boxLabelRE.MatchString(l) && startsUpper(lines[i+1]) {
			continue // a box's label alone on its line ("Remarque :"), what it labels below
		}
		item := false
		if m := listMark(l); m.mark != "" && marks[m.mark] {
			l, item = l[m.end:], true // the mark the list's lines share ("– sourire", "1 - saluer")
		}
		if l == "--" {
			break // an e-mail's signature follows ("-- \nNadine | MIRALab")
		}
		if l == "" || ruleLineRE.MatchString(l) || strings.HasPrefix(l, ":::") {
			continue // ":::note" opens and ":::" closes an admonition's box
		}
		if !strings.ContainsFunc(l, func(r rune) bool { return isAlnum(r) || isEmoji(r) }) {
			continue // a mark whose words went ("- " once its direction went)
		}
		l = quoteLineRE.ReplaceAllString(inlineDashItems(l), "")
		l = headingRE.ReplaceAllString(l, "")
		if b := bulletRE.ReplaceAllString(l, ""); b != l {
			l, item = b, true
		}
		l = strings.TrimPrefix(l, ": ") // a definition's mark ("Term\n: definition")
		if strings.Count(l, "|") >= 2 {
			l = cellsJoined(l)
		}
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
			items = append(items, item)
		}
	}
	joined := leadItems(parts, items)
	for i := range len(parts) - 1 {
		// A line that does not end a sentence (or a clause) ends one:
		// "… (intensity 0.6)" then "Hello" are two sentences.
		end := strings.TrimRightFunc(parts[i], func(r rune) bool { return isEmoji(r) || unicode.IsSpace(r) || r == '*' || r == '_' })
		if r, _ := utf8.DecodeLastRuneInString(end); end != "" && !strings.ContainsRune(".!?…:;,。！？；：，", r) {
			if joined[i] {
				parts[i] += ","
			} else {
				parts[i] += "."
			}
		}
	}
	return strings.Join(parts, " ")
}

// leadItems marks the list items whose line ends with a comma: items of a
// word to three after a lead-in's colon are its words, as a list said in
// line is ("Das kann ich:\n- lächeln\n- winken" is "Das kann ich:
// lächeln, winken."), so the lead-in and its first item are not read as a
// record's field. The last item of such a list is not marked.
func leadItems(parts []string, items []bool) []bool {
	joined := make([]bool, len(parts))
	for i := 0; i < len(parts); i++ {
		if !strings.HasSuffix(parts[i], ":") && !strings.HasSuffix(parts[i], "：") {
			continue
		}
		j := i + 1
		for j < len(parts) && items[j] && len(strings.Fields(parts[j])) <= 3 && !strings.ContainsAny(strings.TrimRight(parts[j], ".!?…"), ".!?…") {
			j++
		}
		if j-i-1 < 2 {
			continue
		}
		for k := i + 1; k < j-1; k++ {
			joined[k] = true
		}
		i = j - 1
	}
	return joined
}

// A list's lines share their lead: whatever mark begins two lines or more
// of a text, made of signs or a number, is the list's and not a word
// ("– sourire", "o saluer", "-chanter", "1 - sourire", "(2) saluer").

// leadMarkRE is a line's lead that may be a list's mark: signs glued to a
// word or before a space, a lone letter "o" before a space, or a number
// with a sign after it (a number alone leads words: "10 ans plus tard").
var leadMarkRE = regexp.MustCompile(`^(?:[(\[#]?\d{1,2}\s*[-–—.)\]:°/]\s*|#\d{1,2}\s+|[^\p{L}\p{N}\s]{1,3}\s*|[oO]\s+)`)

// mark is a line's lead: the mark as lines compare it (numbers alike) and
// where the line's words start.
type mark struct {
	mark string
	end  int
}

// letterMarkRE is a line's lead that counts by letters or roman numerals
// ("a)", "(b)", "C.", "II."); lines share it whatever the letter.
var letterMarkRE = regexp.MustCompile(`^([(\[]?)(?:[A-Za-z]|[ivx]{2,4}|[IVX]{2,4})([.)\]])\s+`)

// listMark is l's lead mark, if it has one.
func listMark(l string) mark {
	if m := letterMarkRE.FindStringSubmatchIndex(l); m != nil && m[1] < len(l) {
		if r, _ := utf8.DecodeRuneInString(l[m[1]:]); unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("*_\"'«“", r) {
			return mark{mark: l[m[2]:m[3]] + "L" + l[m[4]:m[5]], end: m[1]}
		}
	}
	loc := leadMarkRE.FindStringIndex(l)
	if loc == nil || loc[1] >= len(l) {
		return mark{}
	}
	lead := strings.TrimSpace(l[:loc[1]])
	opens := strings.ContainsFunc(lead, func(r rune) bool { return unicode.In(r, unicode.Ps, unicode.Pi) || r == '"' || r == '\'' })
	if opens && !strings.ContainsFunc(lead, unicode.IsDigit) || strings.Trim(lead, ".…") == "" {
		return mark{} // a quote's or an aside's opening, an ellipsis: words follow
	}
	r, _ := utf8.DecodeRuneInString(l[loc[1]:])
	numbered := strings.ContainsFunc(lead, unicode.IsDigit)
	if !unicode.IsLetter(r) && !(unicode.IsDigit(r) && !numbered) && !strings.ContainsRune("*_[(\"'«“", r) {
		return mark{} // words follow a mark; a number's lead is a time or a score ("12:30")
	}
	return mark{mark: digitsRE.ReplaceAllString(lead, "N"), end: loc[1]}
}

// digitsRE is a number in a mark: the list's items count.
var digitsRE = regexp.MustCompile(`\d+`)

// loneStarHeading is the index of Org mode's heading ("* Accueil"): the one
// line of the text led by a star, a few words with no sentence's end,
// before more lines and not after a lead-in's colon (a list of one item);
// -1 for none.
func loneStarHeading(lines []string) int {
	at := -1
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "* ") {
			if at >= 0 {
				return -1 // two: a list
			}
			at = i
		}
	}
	if at < 0 || at == len(lines)-1 {
		return -1
	}
	words := strings.TrimSpace(strings.TrimSpace(lines[at])[2:])
	if len(strings.Fields(words)) > 3 || endsSentence(words) || strings.ContainsAny(words, "*_") {
		return -1
	}
	if at > 0 && strings.HasSuffix(strings.TrimSpace(lines[at-1]), ":") {
		return -1
	}
	return at
}

// sharedMarks are the marks that lead two lines or more.
func sharedMarks(lines []string) map[string]bool {
	seen := map[string]int{}
	for _, line := range lines {
		if m := listMark(strings.TrimSpace(line)); m.mark != "" {
			seen[m.mark]++
		}
	}
	shared := map[string]bool{}
	for m, n := range seen {
		if n >= 2 {
			shared[m] = true
		}
	}
	return shared
}

// edgeCodeRE is inline code that opens or closes a sentence ("`sourire()`
// Je souris pour vous !"): it goes and leaves no hole; inside a sentence
// it is left to the code check, which drops the sentence.
var edgeCodeRE = regexp.MustCompile("(^|[.!?:]\\s+)`([^`\n]{1,60})`(\\s*[.!?]?(?:\\s|$))")

// WithoutComments removes markup's comments ("<!-- … -->"), which hold
// notes for a page's writer, never words said; what reads a reply's
// sections reads it without them.
func WithoutComments(s string) string {
	if !strings.Contains(s, "<!--") {
		return s
	}
	return commentRE.ReplaceAllString(s, "\n")
}

// WithoutEdgeCode removes inline code with code's syntax that opens or
// closes a sentence: it goes with no hole ("`sourire()` Je souris pour
// vous !"); a word in code's font ("`Nadine`") stays.
func WithoutEdgeCode(s string) string {
	if strings.Count(s, "`") < 2 {
		return s
	}
	return edgeCodeRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := edgeCodeRE.FindStringSubmatch(m)
		if !codeSignsRE.MatchString(sub[2]) {
			return m
		}
		return sub[1] + " " + sub[3]
	})
}

// codeSignsRE is code's syntax in a span: a call, an assignment, braces,
// a member's dot.
var codeSignsRE = regexp.MustCompile(`[(){}=;<>\[\]]|\w\.\w`)

// fieldLineRE is a line that is a record's field: a key in lower case
// (a sentence opens with a capital), a colon and a short value. Data, such
// as YAML or a model's own fields, not words said.
var fieldLineRE = regexp.MustCompile(`^\p{Ll}[\p{L}\p{N}_.-]{0,30}[\s\x{a0}\x{202f}]?(?::|\s=)\s*[^\s:][^.!?:\n]{0,40}[.!]?$`)

// admonitionTypeRE is what is left of an admonition's line once a stream
// has cut its "!!!" off as a sentence's end: its type, and a title in
// quotes (MkDocs' "tip", "warning \"Attention\"").
var admonitionTypeRE = regexp.MustCompile(`^(?:note|abstract|summary|tldr|info|todo|tip|hint|important|success|check|done|question|help|faq|warning|caution|attention|failure|fail|missing|danger|error|bug|example|quote|cite)(?:[ \t]+"[^"\n]*")?$`)

// cueFieldRE is a line that gives a field of the reply itself, its emotion,
// gesture, tone or gaze, as a label ("Émotion : joie", "Geste : salut de
// la main"): the robot's cue written out, not words for the visitor.
var cueFieldRE = regexp.MustCompile(`(?i)^(?:émotion|emotion|geste|gesture|ton|tone|humeur|mood|intensité|intensity|expression|regard|gaze|animation|voix|voice|stimmung|gefühl|geste|blick|tonfall|情绪|动作|表情|语气)s?[\s\x{a0}\x{202f}]*[:：]\s*[^.!?\n]{1,40}$`)

// A terminal's or a chat's codes: ANSI's select-graphic-rendition
// ("\x1b[1m", "[0m" once its escape is lost), IRC's colour ("\x03" and
// digits), a chat's mention, channel or timestamp token ("<@U123>",
// "<#C1|général>", "<t:1700000000:R>").
var (
	ansiRE      = regexp.MustCompile(`(?:\x1b|\\x1b|\\033|\\e|\\u001b)?\[[0-9;]{1,12}m|\x03\d{1,2}(?:,\d{1,2})?|[\x02\x0f\x16\x1d\x1f]`)
	chatTokenRE = regexp.MustCompile(`<[@#!][^<>\s]{0,40}>|<t:\d{6,12}(?::[a-zA-Z])?>`)
)

// WithoutChatCodes removes a terminal's and a chat's codes, which are never
// words; a mention goes as a token, not with its sentence.
func WithoutChatCodes(s string) string {
	if strings.ContainsAny(s, "<[\x03\x02\x0f\x16\x1d\x1f") {
		s = chatTokenRE.ReplaceAllString(ansiRE.ReplaceAllString(s, ""), " ")
	}
	return s
}

// unclosedProseFence removes a code fence that is never closed when what
// follows it is prose, not code ("```\nBonjour ! Je suis Nadine."): a
// fence opened by mistake; one holding code still takes it to the end.
func unclosedProseFence(s string) string {
	i := strings.LastIndex(s, "```")
	body := fenceLangRE.ReplaceAllString(s[i+3:], "")
	if strings.TrimSpace(body) == "" || codeRE.MatchString(body) {
		return s
	}
	return s[:i] + "\n" + body
}

// fenceLangRE is a fence's language name, on the fence's line.
var fenceLangRE = regexp.MustCompile(`^[A-Za-z0-9_+-]{0,20}[ \t]*\n`)

// A robot's text-to-speech codes, as NAO and Pepper read them: an inline
// setting between backslashes ("\\pau=500\\", "\\rspd=80\\", "\\rst\\") and
// an animation command of ALAnimatedSpeech ("^start(animations/Stand/…)",
// "^mode(contextual)"); and a cue of one word in braces opening or ending a
// sentence ("{joie} Vous revenez ?").
var (
	naoSettingRE = regexp.MustCompile(`\\[a-zA-Z]{2,8}(?:=[^\\\s]{1,16})?\\`)
	naoCommandRE = regexp.MustCompile(`\^(?:start|stop|wait|run|mode|call|pCall|startTag|waitTag|stopTag|startSound|waitSound|stopSound)\([^)\n]{0,100}\)`)
	braceCueRE   = regexp.MustCompile(`(^|[.!?]\s+)\{\s*\p{L}{2,20}\s*\}[ \t]*|[ \t]*\{\s*\p{L}{2,20}\s*\}([.!?]?\s*$)`)
)

// EarlyForms removes the tokens of chats, terminals, robots and document
// substitutions that other readings would take for words or cells: what the
// gate reads first, and the cleaning too.
func EarlyForms(s string) string {
	s = WithoutRobotCodes(WithoutChatCodes(softwareForms(s)))
	if strings.Count(s, "|") >= 2 {
		s = substitutionRE.ReplaceAllString(s, "$1$2")
	}
	return s
}

// WithoutRobotCodes removes a robot's speech and animation codes and a
// one-word cue in braces at a sentence's edge: never words said.
func WithoutRobotCodes(s string) string {
	if strings.Contains(s, "\\") {
		s = naoSettingRE.ReplaceAllString(s, " ")
	}
	if strings.Contains(s, "^") {
		s = naoCommandRE.ReplaceAllString(s, " ")
	}
	if strings.Contains(s, "{") {
		s = braceCueRE.ReplaceAllString(s, "$1$2")
	}
	if strings.Contains(s, "«") {
		s = quotedCueRE.ReplaceAllString(s, " ")
	}
	return s
}

// quotedCueRE is a field of the reply in guillemets («geste : salut»).
var quotedCueRE = regexp.MustCompile(`(?i)«\s*(?:émotion|emotion|geste|gesture|ton|tone|humeur|mood|regard|gaze|animation)s?\s*:[^»\n]{1,40}»`)

// chatActionRE is a chat's action command opening a line ("/me sourit").
var chatActionRE = regexp.MustCompile(`(?m)^[ \t]*/me[ \t]+`)

// withoutChatActions removes a chat's action ("/me sourit Merci !"): the
// command and the words in lower case after it, a stage direction
// narrated; what opens with a capital is the reply.
func withoutChatActions(s string) string {
	for {
		loc := chatActionRE.FindStringIndex(s)
		if loc == nil {
			return s
		}
		end := loc[1]
		for end < len(s) && s[end] != '\n' {
			r, size := utf8.DecodeRuneInString(s[end:])
			if unicode.IsUpper(r) {
				break
			}
			end += size
		}
		s = s[:loc[0]] + s[end:]
	}
}

// struckRE is words struck with one sign, as chats and Org mode write
// it ("~dix-sept~", "+annulé+", "-deux-"): the words struck are not said.
var struckRE = regexp.MustCompile(`(^|\s)([~+-])(\p{L}(?:[^~+\s\n]|\s\p{L}){0,40}?)([~+-])([\s.,;:!?]|$)`)

// A line's directive in a document language: Textile's block signature
// ("h1.", "bq.", "p(classe)."), troff's macro (".B", ".TH NADINE 1"),
// AsciiDoc's block title (".Réponse") and role (`[.lead]`), reST's
// explicit markup (".. warning::", ".. |x| replace:: …").
var (
	textileBlockRE = regexp.MustCompile(`(?m)^[ \t]*(?:h[1-6]|bq|p|bc|pre|fn\d{1,2})(?:\([^)\n]{0,30}\))?\.(?:[ \t]+|$)`)
	troffRE        = regexp.MustCompile(`(?m)^[ \t]*\.[A-Z][A-Z](?:[ \t].*)?$|(?m)^[ \t]*\.[BIR][ \t]+`)
	blockTitleRE   = regexp.MustCompile(`(?m)^[ \t]*\.\p{L}[^\n.!?]{0,40}$`)
	restRE         = regexp.MustCompile(`(?m)^[ \t]*\.\.[ \t]+(?:\|[^|\n]{1,30}\|[ \t]+)?[\w-]+::.*$|(?m)^[ \t]*\.\.[ \t]+\S.*$`)
	restInlineRE   = regexp.MustCompile(`(?:^|\s)(?:\.\.[ \t]+)?[\w-]+::(?:[ \t]+|$)`)
	roleRE         = regexp.MustCompile(`\[\.[\w-]{1,30}\]#?([^#\n]{0,60})#?|\[\.[\w-]{1,30}\]`)
	troffFontRE    = regexp.MustCompile(`\\f[BIRP]|\\f\([A-Z]{2}`)
)

// A page's annotations by their shape: an abbreviation's definition
// ("*[IA]: intelligence artificielle"), a footnote's mark with a name
// ("[^construction]"), a pair of forum tags whatever their name
// ("[spoiler]…[/spoiler]": the close names the open).
var (
	abbrDefRE     = regexp.MustCompile(`(?m)^[ \t]*\*\[[^\]\n]{1,30}\]:.*$`)
	namedNoteRE   = regexp.MustCompile(`\[\^[\p{L}\p{N}_-]{1,30}\](?::[^\n]*)?`)
	forumCloseRE  = regexp.MustCompile(`\[/([a-zA-Z][a-zA-Z0-9]{0,15})\]`)
	braceAttrsRE  = regexp.MustCompile(`\{:?\s*[.#][\w-]+(?:\s+[.#]?[\w-]+(?:=[^{}\s]+)?)*\s*\}|\{[\w-]+=[^{}\n]{0,30}\}|\{%[^{}\n]{0,60}%\}`)
	cssRuleRE     = regexp.MustCompile(`(?:[.#]?[\w-]+(?:[ \t]*[,>][ \t]*[.#]?[\w-]+)*[ \t]*)?\{\s*[a-z-]+\s*:\s*[^"\s][^{}\n]{0,200}\}`)
	rtfGroupRE    = regexp.MustCompile(`\{\\[a-z]{1,10}\d*\s+([^{}\\\n]{1,60})\}`)
	orgItalicRE   = regexp.MustCompile(`(^|\s)/(\p{L}[^/\n]{0,40}?\p{L}|\p{L})/([\s.,;:!?]|$)`)
	textileLinkRE = regexp.MustCompile(`"([^"\n]{1,60})":(\S)`)
)

// documentForms reads what the document languages (Textile, troff,
// AsciiDoc, reST, Org, Pandoc, RTF, forum tags) add to a reply's words.
func documentForms(s string) string {
	if strings.ContainsAny(s, "!?=") {
		s = admonitionLineRE.ReplaceAllString(s, "")
	}
	if strings.Contains(s, "[") {
		s = embedRE.ReplaceAllString(s, " ")
		s = inlineNoteRE.ReplaceAllString(s, "")
		s = macroRE.ReplaceAllStringFunc(s, func(m string) string {
			sub := macroRE.FindStringSubmatch(m)
			switch strings.ToLower(sub[1]) {
			case "kbd", "btn", "menu", "link", "xref":
				return sub[2] // a key, a button, a link's words
			}
			return "" // a footnote, a picture
		})
	}
	if strings.Contains(s, ":`") {
		s = restRoleRE.ReplaceAllStringFunc(s, func(m string) string {
			if sub := restRoleRE.FindStringSubmatch(m); sub[2] != "" {
				return strings.TrimSpace(sub[1]) // a role's words before its target
			}
			return "" // a bare reference's name
		})
	}
	if strings.Contains(s, "{{") {
		s = langTemplateRE.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "::") {
		s = restInlineRE.ReplaceAllString(s, " ")
	}
	if strings.Contains(s, ".") {
		s = restRE.ReplaceAllString(s, "")
		s = textileBlockRE.ReplaceAllString(s, "")
		s = troffRE.ReplaceAllString(s, "")
		s = blockTitleRE.ReplaceAllString(s, "")
	}
	if strings.Contains(s, "\\f") {
		s = troffFontRE.ReplaceAllString(s, "")
	}
	if strings.Contains(s, "[") {
		s = abbrDefRE.ReplaceAllString(s, "")
		s = namedNoteRE.ReplaceAllString(s, "")
		s = roleRE.ReplaceAllString(s, "$1")
		if strings.Contains(s, "[/") {
			s = withoutForumPairs(WithoutForumImages(s, " "))
		}
	}
	if strings.Contains(s, "{") {
		s = rtfGroupRE.ReplaceAllString(braceAttrsRE.ReplaceAllString(cssRuleRE.ReplaceAllString(s, " "), " "), "$1")
	}
	if strings.ContainsAny(s, "~+-") {
		s = struckRE.ReplaceAllStringFunc(s, func(m string) string {
			sub := struckRE.FindStringSubmatch(m)
			if sub[2] != sub[4] {
				return m
			}
			return sub[1] + sub[5]
		})
	}
	if strings.Contains(s, "/") {
		s = orgItalicRE.ReplaceAllString(s, "$1$2$3")
	}
	if strings.Contains(s, `":`) {
		s = textileLinkRE.ReplaceAllString(s, "$1 $2")
	}
	return s
}

// bbImageRE is a forum's picture, its file between the tags: never words.
var bbImageRE = regexp.MustCompile(`(?i)\[img(?:=[^\]\n]{0,40})?\][^\[\n]{0,200}\[/img\]`)

// WithoutForumImages replaces a forum's pictures ("[img]sourire.png[/img]")
// with with.
func WithoutForumImages(s, with string) string {
	if !strings.Contains(s, "[/") {
		return s
	}
	return bbImageRE.ReplaceAllLiteralString(s, with)
}

// More document forms: MkDocs' admonition, collapsible and tab lines
// ("!!! tip", "??? note \"Titre\"", "=== \"English\""), an embedded file
// ("![[plan.png|300]]"), an inline footnote (Pandoc's "^[…]", AsciiDoc's
// "footnote:[…]"), AsciiDoc's macros ("kbd:[Entrée]"), reST's roles
// (":ref:`salle-automates`", ":doc:`la visite <visite>`") and
// substitutions ("|nbsp|"), a wiki's language template ("{{lang|en|Hello}}").
var (
	admonitionLineRE = regexp.MustCompile(`(?m)^[ \t]*(?:!!!|\?\?\?\+?|===)[ \t]+[^\n]*$`)
	embedRE          = regexp.MustCompile(`!\[\[[^\]\n]{1,80}\]\]`)
	inlineNoteRE     = regexp.MustCompile(`\^\[[^\]\n]{1,200}\]|\bfootnote:\[[^\]\n]{0,200}\]`)
	macroRE          = regexp.MustCompile(`\b(kbd|btn|menu|link|xref|image|footnote):(?:[^\s\[]*)\[([^\]\n]{0,80})\]`)
	restRoleRE       = regexp.MustCompile(`:[a-z]{2,12}:` + "`" + `([^` + "`" + `<\n]*)(<[^>\n]*>)?` + "`")
	substitutionRE   = regexp.MustCompile(`(?m)(^|\S[ \t]+)\|[A-Za-z][\w-]{0,19}\|([ \t]|$)`)
	langTemplateRE   = regexp.MustCompile(`\{\{\s*lang\s*\|\s*[a-z]{2,3}\s*\|\s*([^{}|\n]{1,80})\}\}`)
)

// withoutForumPairs removes a forum's tags that a close pairs, whatever
// their name; the words between stay.
func withoutForumPairs(s string) string {
	for _, m := range forumCloseRE.FindAllStringSubmatch(s, -1) {
		open := regexp.MustCompile(`(?i)\[` + regexp.QuoteMeta(m[1]) + `(?:=[^\]\n]{0,40})?\]`)
		if open.MatchString(s) {
			s = strings.ReplaceAll(open.ReplaceAllString(s, " "), m[0], " ")
		}
	}
	return s
}

// captionLineRE is a line that names a part of a page, a number or a
// label after the name: a title, a caption, a section, a box.
var captionLineRE = regexp.MustCompile(`(?i)^(?:titre|sous-titre|tableau|figure|fig\.|section|chapitre|encadré|légende|mots-clés|mots clés|étiquettes|title|subtitle|table|caption|chapter|sidebar|keywords|tags|titel|untertitel|tabelle|abbildung|abschnitt|kapitel|kasten|schlagwörter|stichwörter|标题|副标题|表|图|关键词|标签)(?:\s*[\d.]+)?\s*(?:[:：–—-]|«|"|$)`)

// captionLeadRE is a caption's or a title's label that opens a sentence
// read alone, as a stream reads it ("Sous-titre : une journée …"): the
// label goes, its words stay.
var captionLeadRE = regexp.MustCompile(`^(?i:titre|sous-titre|légende|encadré|mots-clés|keywords|schlagwörter|tableau(?:\s*[\d.]+)?|figure\s*[\d.]+|title|subtitle|caption|table\s*[\d.]+|titel|untertitel|tabelle(?:\s*[\d.]+)?|abbildung(?:\s*[\d.]+)?|kasten)\s*[:：]\s*|^(?i:encadré|kasten|sidebar)\s+`)

// footnoteBodyRE is a footnote's body: a line led by its number in
// superscript ("¹ Source : …").
var footnoteBodyRE = regexp.MustCompile(`(?m)^[ \t]*[¹²³⁴⁵⁶⁷⁸⁹⁰]+[ \t].*$`)

// startsUpper reports a line whose words open with a capital: a sentence,
// not a list's item.
func startsUpper(line string) bool {
	r, _ := utf8.DecodeRuneInString(strings.TrimSpace(line))
	return unicode.IsUpper(r)
}

// boxLabelRE is a label of one word alone on its line, what it labels on
// the next ("Remarque :", "Note:", "Hinweis:").
var boxLabelRE = regexp.MustCompile(`^\p{Lu}\p{Ll}{1,15}\s?[:：]$`)

// leadAttributeRE is an attribute that opens a sentence ("style=\"color:red\"
// Bonjour !").
var leadAttributeRE = regexp.MustCompile(`(^|[.!?]\s+)[\w:-]+=(?:"[^"\n]{0,60}"|'[^'\n]{0,60}')\s*`)

// attributesRE is a tag's name and attributes written without its
// brackets ("prosody rate=\"slow\"").
var attributesRE = regexp.MustCompile(`[\w:-]+(?:\s+[\w:-]+=(?:"[^"\n]{0,60}"|'[^'\n]{0,60}'))+`)

// dashWordsRE is a hyphen set apart between words, a dash typed with it.
var dashWordsRE = regexp.MustCompile(`(\p{L}[.,;!?]?) - (\p{L})`)

// dashItemRE is a list's dash between words of one line.
var dashItemRE = regexp.MustCompile(`\s[-–]\s+`)

// inlineDashItems reads a list written in one line with dashes after a
// colon ("Je sais : - sourire - saluer"), its newlines lost: the items are
// parted by commas.
func inlineDashItems(l string) string {
	l = colonDashItems(l)
	if len(dashWordsRE.FindAllStringIndex(l, -1)) >= 2 {
		// Two dashes between words or more ("beaucoup de choses - sourire
		// - parler"): a list's, read as commas; a pause either way.
		l = dashWordsRE.ReplaceAllString(l, "$1, $2")
	}
	return l
}

// colonDashItems reads a list opened by a colon and a dash.
func colonDashItems(l string) string {
	i := strings.IndexAny(l, ":：")
	if i < 0 {
		return l
	}
	rest := strings.TrimLeft(l[i+1:], " \t")
	if !strings.HasPrefix(rest, "- ") && !strings.HasPrefix(rest, "– ") || len(dashItemRE.FindAllStringIndex(rest, -1)) < 1 {
		return l
	}
	_, size := utf8.DecodeRuneInString(rest)
	if r, _ := utf8.DecodeRuneInString(strings.TrimSpace(rest[size:])); !unicode.IsLetter(r) {
		return l // a number's sign ("Attention : - 5 degrés")
	}
	return l[:i+1] + " " + dashItemRE.ReplaceAllString(strings.TrimSpace(rest[size:]), ", ")
}

// cellsJoined reads a row of cells parted by pipes as a list: commas
// between cells, a space after a cell that leads in with a colon.
func cellsJoined(l string) string {
	cells := nonBlank(strings.FieldsFunc(l, func(r rune) bool { return r == '|' }))
	var b strings.Builder
	for i, c := range cells {
		c = strings.TrimSpace(c)
		if i > 0 {
			if strings.HasSuffix(strings.TrimSpace(cells[i-1]), ":") {
				b.WriteByte(' ')
			} else {
				b.WriteString(", ")
			}
		}
		b.WriteString(c)
	}
	return b.String()
}

// inlineEnumerators removes the numbers of a list written in one line when
// they count from 1 ("1) I can smile 2) I can wave"): an item that does not
// follow a sentence's end gets one, so the items stay sentences. A number
// alone ("Chapter 1. It began", "a 10 out of 10") is no list.
func inlineEnumerators(s string) string {
	locs := enumeratorRE.FindAllStringSubmatchIndex(s, -1)
	var items [][]int
	kind := ""
	for _, m := range locs {
		n, punct := s[m[4]:m[5]], s[m[6]:m[7]]
		if len(items) == 0 {
			kind = n // the first item says how the list counts: "1", "a", "A", "i", "I"
		}
		if ordinal(n, kind) != len(items)+1 || (len(items) > 0 && punct != s[items[0][6]:items[0][7]]) {
			if len(items) >= 2 {
				break
			}
			items, kind = nil, n
			if ordinal(n, kind) != 1 {
				continue
			}
		}
		if len(items) == 0 && m[2] != m[3] && !endsSentence(s[:m[2]]) && !strings.HasSuffix(strings.TrimSpace(s[:m[2]]), ":") {
			continue // "a score of 1. Then": a list starts a sentence, or follows a colon
		}
		items = append(items, m)
	}
	if len(items) < 2 {
		return s
	}
	// Items of a word or three after a lead-in's colon are its words ("Je
	// sais : 1. sourire 2. saluer" is "Je sais : sourire, saluer").
	sep := "."
	if strings.HasSuffix(strings.TrimSpace(s[:items[0][0]]), ":") {
		sep = ","
		for i, m := range items {
			end := len(s)
			if i+1 < len(items) {
				end = items[i+1][0]
			}
			words := strings.TrimSpace(s[m[1]:end])
			if j := strings.IndexAny(words, ".!?…"); i+1 == len(items) && j >= 0 {
				words = words[:j] // the last item ends with the sentence
			}
			if endsSentence(words) || strings.ContainsAny(words, ".!?") || len(strings.Fields(words)) > 3 {
				sep = "."
				break
			}
		}
	}
	var b strings.Builder
	last := 0
	for i, m := range items {
		before := strings.TrimRight(s[last:m[0]], " \t")
		b.WriteString(before)
		if i > 0 && !endsSentence(before) && !strings.HasSuffix(before, ",") && !strings.HasSuffix(before, ";") && !conjunctionEnd(before) {
			b.WriteString(sep) // an item after a comma, a semicolon or "et" is the list's next
		}
		if b.Len() > 0 {
			b.WriteString(s[m[2]:m[3]])
		}
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// conjunctionEnd reports text that ends with a word joining it to the next
// item ("sourire et").
func conjunctionEnd(text string) bool {
	ws := strings.Fields(text)
	if len(ws) == 0 {
		return false
	}
	switch strings.ToLower(ws[len(ws)-1]) {
	case "et", "ou", "and", "or", "und", "oder", "puis", "then", "dann":
		return true
	}
	return false
}

// ordinal is an item's place in a list that counts as its first item
// does (kind): by numbers, by letters, or by roman numerals; 0 when n does
// not count that way.
func ordinal(n, kind string) int {
	switch {
	case kind[0] >= '0' && kind[0] <= '9':
		v, err := strconv.Atoi(n)
		if err != nil {
			return 0
		}
		return v
	case kind == "i" || kind == "I":
		return romanValue[strings.ToLower(n)]
	case len(n) == 1 && strings.EqualFold(kind, "a") && (n[0]|0x20 >= 'a' && n[0]|0x20 <= 'h'): // "A. sourire b. saluer": a sentence's capital on the first
		return int(n[0]|0x20-'a') + 1
	}
	return 0
}

// romanValue are the roman numerals a short list counts to.
var romanValue = map[string]int{"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9}

// endsSentence reports text that is empty or ends with a sentence's end.
func endsSentence(text string) bool {
	text = strings.TrimSpace(text)
	r, _ := utf8.DecodeLastRuneInString(text)
	return text == "" || strings.ContainsRune(".!?…:;。！？；：\n", r)
}

func nonBlank(xs []string) []string {
	var out []string
	for _, x := range xs {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// stripWrapping drops one layer of what models wrap replies in: a speaker
// prefix, a stage direction, quotes, a stray quote from a cut sentence.
func stripWrapping(s string) string {
	if loc := speakerRE.FindStringIndex(s); loc != nil && loc[1] < len(s) {
		return strings.TrimSpace(s[loc[1]:])
	}
	if loc := stageRE.FindStringIndex(s); loc != nil && loc[1] < len(s) {
		return strings.TrimSpace(s[loc[1]:])
	}
	for _, q := range quotePairs {
		if len(s) < len(q[0])+len(q[1]) || !strings.HasPrefix(s, q[0]) || !strings.HasSuffix(s, q[1]) {
			continue
		}
		inner := s[len(q[0]) : len(s)-len(q[1])]
		switch {
		case q[0] == "'" && (strings.Contains(inner, "' ") || strings.Contains(inner, " '")):
			continue // 'a' and 'b': not one quoted text
		case q[0] == q[1] && q[0] != "'" && strings.Contains(inner, q[0]):
			continue // "a" and "b"
		}
		return strings.TrimSpace(inner)
	}
	if strings.Count(s, `"`)%2 == 1 {
		if strings.HasPrefix(s, `"`) {
			return strings.TrimSpace(s[1:])
		}
		if strings.HasSuffix(s, `"`) {
			return strings.TrimSpace(s[:len(s)-1])
		}
	}
	for _, q := range [][2]string{{"“", "”"}, {"«", "»"}, {"„", "“"}, {"‘", "’"}} {
		open, close := strings.Count(s, q[0]), strings.Count(s, q[1])
		if open > close && strings.HasPrefix(s, q[0]) {
			return strings.TrimSpace(s[len(q[0]):])
		}
		if close > open && strings.HasSuffix(s, q[1]) && q[1] != "’" {
			return strings.TrimSpace(s[:len(s)-len(q[1])])
		}
	}
	return s
}

// enclosed reports a number or a letter drawn inside a circle, a bracket
// or with its full stop: Unicode's enclosed alphanumerics, whole blocks.
func enclosed(r rune) bool {
	return r >= 0x2460 && r <= 0x24FF || r >= 0x2776 && r <= 0x2793 || r >= 0x3251 && r <= 0x325F || r >= 0x3280 && r <= 0x32BF || r >= 0x1F100 && r <= 0x1F1FF
}

// isEmoji reports pictographs and their joiners and modifiers; signs such
// as ° or € are kept, since they are read aloud.
func isEmoji(r rune) bool {
	switch {
	case r >= 0x1F000 && r <= 0x1FAFF, // mahjong … symbols and pictographs extended-A
		r >= 0x2600 && r <= 0x27BF, // miscellaneous symbols, dingbats
		r >= 0x2B00 && r <= 0x2BFF, // arrows and stars (⭐)
		r >= 0x1F1E6 && r <= 0x1F1FF,
		r >= 0xFE00 && r <= 0xFE0F,            // variation selectors
		r >= 0xE0020 && r <= 0xE007F,          // tags
		r == 0x200D, r == 0x20E3, r == 0x2139, // ℹ️, a letter by its category
		r == 0x3297 || r == 0x3299, r >= 0x1F200 && r <= 0x1F2FF, // ㊗️ ㊙️ and the enclosed ideographs
		r >= 0x231A && r <= 0x231B, r >= 0x23E9 && r <= 0x23FA, r == 0x24C2, r == 0x3030, r == 0x303D:
		return true
	}
	return false
}

// SentenceCheck returns a sentence as spoken ("" for nothing) or an
// EBADOUTPUT error; one wrapping ErrLeftOut drops only that sentence.
type SentenceCheck func(sentence string) (string, error)

// ErrLeftOut marks a sentence left out of a reply that goes on (a web
// address, an assistant-ism), unlike JSON or an echo, which stops a stream.
var ErrLeftOut = errors.New("left out of the reply")

// Instructions are a prompt's own texts, prepared once for the echo check
// of every sentence. A nil *Instructions checks no echo.
type Instructions struct {
	folded   []string // " " + fold(text) + " "
	headings []string
}

// NewInstructions prepares a prompt's own texts for the echo check.
func NewInstructions(texts ...string) *Instructions {
	in := &Instructions{}
	for _, t := range texts {
		in.folded = append(in.folded, " "+fold(t)+" ")
		for _, m := range headingLnRE.FindAllStringSubmatch(t, -1) {
			in.headings = append(in.headings, m[1])
		}
	}
	return in
}

// Reply returns a whole reply as text to speak, or an EBADOUTPUT error
// saying why it is none; it checks no echo (see Instructions.Speech).
func Reply(text string) (spoken string, dropped []string, err error) {
	return (*Instructions)(nil).Speech(text)
}

// Sentence cleans one sentence; EBADOUTPUT when it is not speech, "" with no
// error for nothing to say. It checks no echo (see Instructions.Sentence).
func Sentence(sentence string) (string, error) {
	return (*Instructions)(nil).Sentence(sentence)
}

// Speech is Reply with the echo check: bad sentences are dropped and
// returned while others remain; with none left the reply is refused.
func (in *Instructions) Speech(text string) (spoken string, dropped []string, err error) {
	return Checked(text, in.Sentence)
}

// Checked is Instructions.Speech with check deciding each sentence.
func Checked(text string, check SentenceCheck) (spoken string, dropped []string, err error) {
	raw := strings.TrimSpace(StripThinking(text))
	if looksLikeJSON(raw) {
		return "", nil, nadine.Errorf(nadine.EBADOUTPUT, "not speech: the answer is JSON")
	}
	if specialRE.MatchString(raw) || structureRE.MatchString(raw) {
		return "", nil, nadine.Errorf(nadine.EBADOUTPUT, "not speech: the answer holds markup")
	}
	clean := Clean(raw)
	if clean == "" {
		if strings.Contains(raw, "```") {
			return "", nil, nadine.Errorf(nadine.EBADOUTPUT, "not speech: the answer is a code block")
		}
		return "", nil, nadine.Errorf(nadine.EBADOUTPUT, "not speech: the answer is empty")
	}
	if utf8.RuneCountInString(clean) > MaxRunes {
		return "", nil, nadine.Errorf(nadine.EBADOUTPUT, "not speech: %d characters, far past the length rules", utf8.RuneCountInString(clean))
	}
	var kept []string
	var first error
	for _, sent := range SplitSentences(clean) {
		s, err := check(sent)
		switch {
		case err != nil:
			dropped = append(dropped, sent)
			if first == nil {
				first = err
			}
		case s != "":
			kept = append(kept, s)
		}
	}
	if len(kept) == 0 {
		if first == nil {
			first = nadine.Errorf(nadine.EBADOUTPUT, "not speech: the answer is empty")
		}
		return "", dropped, first
	}
	return strings.Join(kept, " "), dropped, nil
}

// Sentence is the package's Sentence with the echo check of the instructions.
func (in *Instructions) Sentence(sentence string) (string, error) {
	raw := strings.TrimSpace(sentence)
	if jsonKeyRE.MatchString(raw) || looksLikeJSON(raw) {
		return "", nadine.Errorf(nadine.EBADOUTPUT, "not speech: JSON")
	}
	if specialRE.MatchString(raw) || structureRE.MatchString(raw) {
		return "", nadine.Errorf(nadine.EBADOUTPUT, "not speech: markup")
	}
	s := Clean(raw)
	if strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
		return "", nil // signs alone ("）" after a note in parentheses): nothing to say
	}
	if codeRE.MatchString(s) {
		return "", nadine.Errorf(nadine.EBADOUTPUT, "not speech: code or markup")
	}
	if labelOnlyRE.MatchString(s) {
		// "Nadine: Nadine: Nadine:", a repetition loop on the speaker
		// label, is left as one label by the cleaning.
		return "", nadine.Errorf(nadine.EBADOUTPUT, "not speech: a speaker label with nothing said")
	}
	if formatTalkRE.MatchString(s) {
		return "", nadine.Errorf(nadine.EBADOUTPUT, "not speech: talk about the answer's format")
	}
	if in.echoes(s) || in.echoesHeading(raw) {
		return "", nadine.Errorf(nadine.EBADOUTPUT, "not speech: an echo of the prompt")
	}
	return Unspelled(s), nil
}

var (
	// labelOnlyRE is a sentence that is only speaker labels ("Nadine:").
	labelOnlyRE = regexp.MustCompile(`^(?:\p{L}[\p{L}'-]{0,30}\s*:\s*)+$`)
	// formatTalkRE is a model talking about its required format, which a
	// visitor must not hear; a reply about JSON itself is not matched.
	formatTalkRE = regexp.MustCompile(`(?i)\b(?:cannot|can't|can not|unable to|won't|will not|refuse to|not able to)\b[^.!?]{0,60}\b(?:comply|follow|produce|output|answer|respond|reply)\b[^.!?]{0,60}\b(?:json|schema|format)\b` +
		`|\b(?:requested|required|expected|specified) (?:json |output |response |answer )?(?:format|schema)\b|\bthe (?:json )?schema is\b`)
	capsRunRE   = regexp.MustCompile(`\b[A-Z][A-Z']+(?:[ \t]+[A-Z][A-Z']+)+\b|\b[A-Z][A-Z']{2,}[ \t]*:`)
	headingLnRE = regexp.MustCompile(`(?m)^[ \t]*([A-Z][A-Z']+(?:[ \t]+[A-Z][A-Z']+)*)[ \t]*(?:\([^)\n]*\))?[ \t]*(?::|$)`)
)

// echoesHeading reports whether sentence holds one of the instructions'
// headings ("HUMAN'S INPUT", "YOUR FEELINGS:"), written in capitals.
func (in *Instructions) echoesHeading(sentence string) bool {
	if in == nil {
		return false
	}
	for _, r := range capsRunRE.FindAllString(sentence, -1) {
		r = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(r), ":"))
		for _, h := range in.headings {
			if r == h {
				return true
			}
		}
	}
	return false
}

// looksLikeJSON reports whether s, without a code fence, is a JSON object
// or array.
func looksLikeJSON(s string) bool {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```")
		s = strings.TrimPrefix(strings.TrimPrefix(s, "json"), "JSON")
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
	}
	if s == "" || (s[0] != '{' && s[0] != '[') {
		return false
	}
	if json.Valid([]byte(s)) {
		return true
	}
	// Cut or sloppy JSON: a key in quotes followed by a colon.
	return jsonKeyRE.MatchString(s) || strings.HasPrefix(s, "{\"") || strings.HasPrefix(s, "[{")
}

// echoes reports whether most of sentence's words (60%, at least six) are in
// runs of six found in one instruction, so a skipped line still counts.
func (in *Instructions) echoes(sentence string) bool {
	const run = 6
	if in == nil {
		return false
	}
	words := strings.Fields(fold(sentence))
	if len(words) < run || len(strings.Join(words, " ")) < 28 {
		return false
	}
	for _, text := range in.folded {
		covered := make([]bool, len(words))
		for i := 0; i+run <= len(words); i++ {
			if strings.Contains(text, " "+strings.Join(words[i:i+run], " ")+" ") {
				for j := i; j < i+run; j++ {
					covered[j] = true
				}
			}
		}
		n := 0
		for _, c := range covered {
			if c {
				n++
			}
		}
		if n >= run && n*10 >= len(words)*6 {
			return true
		}
	}
	return false
}

// fold keeps the lowercased letters and digits of s, one space between words.
func fold(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		space = true
	}
	return b.String()
}

// Stream yields sentences of a streamed reply as each completes, and holds
// for good once the text shows it is no reply. The zero value is ready.
type Stream struct {
	// Instructions are the prompt's own texts, for the echo check (nil:
	// none).
	Instructions *Instructions
	// Check, when set, decides each sentence instead of Instructions: a
	// sentence it leaves out (ErrLeftOut) is skipped, any other error
	// holds the stream.
	Check SentenceCheck
	// Whole, when set, reads the reply so far as one text, as a reply read
	// whole is read: a sentence Check passes is said only when that reading
	// keeps it, or the parts of it the reading keeps, so what a line is
	// from the lines around it (a heading's underline, a table's rule, a
	// footnote's line, a list's lead) is not lost to the stream. A sentence
	// that ends before anything of the next has come waits for it. When the
	// reading finds no reply, each sentence decides alone.
	Whole func(text string) (string, error)

	pending strings.Builder // text not yet decided or not yet past a tag
	inThink string          // the open reasoning tag, while in one
	started bool            // the reply has begun with speech
	held    error
	split   SentenceSplitter
	runes   int
	dropped []string
	read    strings.Builder // the sentences read so far, as written: a note's mark glued to a word
	seen    strings.Builder // the visible text so far, for Whole
	waiting []piece         // sentences Check passed, for Whole to confirm
	said    string          // what was said so far, a sentence a line
}

// Write adds a piece of the reply and returns the sentences it completed
// that may be spoken.
func (s *Stream) Write(delta string) []string {
	if s.held != nil {
		return nil
	}
	s.pending.WriteString(delta)
	text := s.visible(false)
	if text == "" {
		return s.confirm(false)
	}
	s.seen.WriteString(text)
	s.waiting = append(s.waiting, s.check(s.split.Write(text))...)
	return s.confirm(false)
}

// Flush returns the last, unterminated sentence when it may be spoken.
func (s *Stream) Flush() []string {
	if s.held != nil {
		return nil
	}
	text := s.visible(true)
	s.seen.WriteString(text)
	s.waiting = append(s.waiting, s.check(s.split.Write(text))...)
	if s.held == nil {
		if last := s.split.Flush(); last != "" {
			s.waiting = append(s.waiting, s.check([]string{last})...)
		}
	}
	return s.confirm(true)
}

// confirm returns the sentences waiting that the reading of the whole text
// so far keeps (all of them without Whole). The last waits while what
// follows it cannot place it yet, unless final; once the stream holds, the
// reply is read whole by its caller, so what waits is not said here.
func (s *Stream) confirm(final bool) []string {
	if len(s.waiting) == 0 {
		return nil
	}
	if s.Whole == nil {
		out := cleans(s.waiting)
		s.waiting = nil
		return out
	}
	if s.held != nil {
		s.waiting = nil
		return nil
	}
	hold := 0 // the last sentence, while what follows it cannot place it yet
	switch {
	case final:
	case openElement(s.seen.String()):
		hold = len(s.waiting) // inside an element ("<ref>Thalmann, N. (2013).") until it closes
	case !s.decidable():
		hold = 1
	}
	if len(s.waiting) <= hold {
		return nil
	}
	n := len(s.waiting) - hold
	waiting := s.waiting[:n:n]
	s.waiting = slices.Clone(s.waiting[n:])
	whole, err := s.Whole(s.seen.String())
	if err != nil {
		return s.sayOnce(cleans(waiting))
	}
	var out []string
	for _, p := range waiting {
		if Holds(whole, p.clean) {
			out = append(out, p.clean)
			continue
		}
		s.dropped = append(s.dropped, p.raw)
		// The parts of it the reading keeps ("Guide du visiteur — MIRALab\n
		// Il étudie…" after a page's number: the running head goes), found
		// in the sentence as written and said as the one piece the stream
		// read.
		var parts []string
		for _, part := range SplitSentences(whole) {
			if fold(part) == "" || !Holds(p.raw, part) || Holds(s.said, part) {
				continue
			}
			if clean, err := s.sentence(part); err == nil && clean != "" {
				parts = append(parts, clean) // a part passes the sentence's check too
			}
		}
		if len(parts) > 0 {
			out = append(out, strings.Join(parts, " "))
		}
	}
	return s.sayOnce(out)
}

// Holds reports whether text holds sentence's words in a row: how a stream
// finds a sentence in the reading of the whole reply. A sentence of
// four words or more may have two of them joined in text, or parted
// ("bien<wbr>compris" read whole is "biencompris"); a shorter one must
// match whole words, so a table's cell ("Lun.") is not found inside a word
// ("lundi").
func Holds(text, sentence string) bool {
	f := fold(sentence)
	if strings.Contains(" "+fold(text)+" ", " "+f+" ") {
		return true
	}
	return len(strings.Fields(f)) >= 4 && strings.Contains(tight(text), tight(sentence))
}

// tight keeps the lowercased letters and digits of s.
func tight(s string) string {
	return strings.ReplaceAll(fold(s), " ", "")
}

// decidable reports whether enough of what follows the last sentence
// waiting has come for the reading to place it: a word of the next sentence on
// their line; the first two words of the next line when they end theirs
// (which may make them a heading, a table's head, another speaker's turn);
// the end of their line when it opens with a sign (a table's row, a
// quoted or marked line).
func (s *Stream) decidable() bool {
	tail := s.split.buf.String() + s.pending.String()
	if _, next, ok := strings.Cut(tail, "\n"); ok {
		return len(strings.FieldsFunc(next, func(r rune) bool { return !isAlnum(r) })) >= 2
	}
	if fold(tail) == "" {
		return false
	}
	seen := s.seen.String()
	line := strings.TrimSpace(seen[strings.LastIndexByte(seen, '\n')+1:])
	r, _ := utf8.DecodeRuneInString(line)
	return isAlnum(r) || strings.ContainsRune("\"'«“‘¿¡(", r)
}

// openElement reports text whose last element opened within asideMax bytes
// and is not closed yet: what follows may be its content (a reference, a
// note). HTML's void elements hold nothing.
func openElement(text string) bool {
	if len(text) > asideMax {
		text = text[len(text)-asideMax:]
	}
	tags := openTagRE.FindAllStringSubmatchIndex(text, -1)
	if tags == nil {
		return false
	}
	m := tags[len(tags)-1]
	name := ASCIILower(text[m[2]:m[3]])
	if voidElements[name] || strings.HasSuffix(text[m[0]:m[1]], "/>") {
		return false
	}
	return !strings.Contains(ASCIILower(text[m[1]:]), "</"+name)
}

var (
	// openTagRE is an element's opening tag.
	openTagRE = regexp.MustCompile(`<([A-Za-z][A-Za-z0-9]{0,15})(?:\s[^<>]{0,200})?>`)
	// voidElements are HTML's elements that have no content nor close.
	voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
		"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}
)

// sayOnce records sentences as said and returns them.
func (s *Stream) sayOnce(sents []string) []string {
	for _, sent := range sents {
		s.said += sent + "\n"
	}
	return sents
}

// Held returns why the stream stopped speaking (an EBADOUTPUT error), or nil.
func (s *Stream) Held() error { return s.held }

// Dropped returns the sentences that were not spoken because they were
// not speech.
func (s *Stream) Dropped() []string { return s.dropped }

// visible is pending's text outside reasoning blocks; a possible partial tag
// at the end waits for the next piece unless final.
func (s *Stream) visible(final bool) string {
	var out strings.Builder
	p := s.pending.String()
	if strings.Contains(p, "◁") {
		p = shapeThinkRE.ReplaceAllString(p, "<$1>")
	}
	for {
		if s.inThink != "" {
			end := strings.Index(ASCIILower(p), "</"+s.inThink+">")
			if end < 0 {
				if final {
					p = ""
				} else if len(p) > 16 {
					p = p[len(p)-16:]
				}
				break
			}
			p = p[end+len(s.inThink)+3:]
			s.inThink = ""
			continue
		}
		if loc := thinkOpenRE.FindStringSubmatchIndex(p); loc != nil {
			out.WriteString(p[:loc[0]])
			s.inThink = strings.ToLower(p[loc[2]:loc[3]])
			p = p[loc[1]:]
			continue
		}
		keep := 0
		if !final {
			if i := max(strings.LastIndexByte(p, '<'), strings.LastIndex(p, "◁")); i >= 0 && len(p)-i <= 14 && !strings.ContainsAny(p[i:], " >▷") {
				keep = len(p) - i // "<thi" may become "<think>", "◁thi" "◁think▷"
			}
		}
		out.WriteString(p[:len(p)-keep])
		p = p[len(p)-keep:]
		break
	}
	s.pending.Reset()
	s.pending.WriteString(p)
	text := out.String()
	if !s.started {
		t := strings.TrimLeftFunc(text, unicode.IsSpace)
		if t == "" {
			return ""
		}
		if t[0] == '`' && len(t) < 3 && !final {
			s.pending.Reset()
			s.pending.WriteString(t + p) // "`" may become "```"
			return ""
		}
		if lt := ASCIILower(t); !final && len(t) <= len("commentary") && (strings.HasPrefix("analysis", lt) || strings.HasPrefix("commentary", lt)) {
			s.pending.Reset()
			s.pending.WriteString(t + p) // "analys" may become "analysisThe user…"
			return ""
		}
		switch {
		case t[0] == '{' || t[0] == '[':
			s.held = nadine.Errorf(nadine.EBADOUTPUT, "not speech: the answer starts like JSON")
		case strings.HasPrefix(t, "```"):
			s.held = nadine.Errorf(nadine.EBADOUTPUT, "not speech: the answer starts with a code block")
		case t[0] == '<':
			s.held = nadine.Errorf(nadine.EBADOUTPUT, "not speech: the answer starts with markup")
		case bareChannelRE.MatchString(t):
			s.held = nadine.Errorf(nadine.EBADOUTPUT, "not speech: the answer starts with a reasoning channel")
		}
		if s.held != nil {
			return ""
		}
		s.started = true
		text = t
	}
	return text
}

// sentence decides one sentence by Check (or the instructions' echo check).
func (s *Stream) sentence(sent string) (string, error) {
	if s.Check != nil {
		return s.Check(sent)
	}
	return s.Instructions.Sentence(sent)
}

// piece is a sentence of the stream as written and as it is to be said.
type piece struct{ raw, clean string }

// cleans returns the pieces as they are to be said.
func cleans(ps []piece) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.clean
	}
	return out
}

// check checks each sentence; the first that is not speech holds the stream.
func (s *Stream) check(sents []string) []piece {
	var out []piece
	for _, sent := range sents {
		if s.held != nil {
			s.dropped = append(s.dropped, sent)
			continue
		}
		if m := noteLineRE.FindStringSubmatch(sent); m != nil && noteMarkAfterWord(s.read.String(), strings.TrimSuffix(m[1], ":")) {
			// A footnote's body, its mark glued to a word said before: its
			// line goes, the lines after it are the reply's.
			note, rest, _ := strings.Cut(sent, "\n")
			s.dropped = append(s.dropped, note)
			if sent = strings.TrimSpace(rest); sent == "" {
				continue
			}
		}
		s.read.WriteString(sent + "\n")
		clean, err := s.sentence(sent)
		if errors.Is(err, ErrLeftOut) {
			s.dropped = append(s.dropped, sent)
			continue
		}
		if err != nil {
			s.held = err
			s.dropped = append(s.dropped, sent)
			continue
		}
		if clean == "" {
			continue
		}
		if s.runes += utf8.RuneCountInString(clean); s.runes > MaxRunes {
			s.held = nadine.Errorf(nadine.EBADOUTPUT, "not speech: far past the length rules (%d characters)", s.runes)
			s.dropped = append(s.dropped, sent)
			continue
		}
		out = append(out, piece{sent, clean})
	}
	return out
}
