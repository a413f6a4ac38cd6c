package speakable

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/spoken"
	"golang.org/x/text/width"
)

// Addresses are never read out: a sentence holding one is rewritten or
// dropped whole, never left with a hole ("read about me at or on").

// pathHost is a host of any ending followed by a path or a query
// ("miralab.example/run?cmd=…"): a name with a dot is an address when a
// path follows it, whatever its ending.
const pathHost = `\b(?:[\p{Latin}\p{N}-]+\.)+\p{Latin}{2,}[/?][^\s<>"'“”«»)\]` + cjkText + `]*`

// topLevel are domain endings: without a scheme or "www." they tell an
// address ("miralab.ch") from an abbreviation ("St.Gallen").
// spacedEndings are the endings of an address no sentence of Nadine's
// languages begins with, in lowercase: a dot and a space before one of
// them is an address's dot ("miralab. ch"); not a space and a dot ("the
// .com bubble").
const spacedEndings = `com|org|net|edu|gov|io|ai|app|dev|ch|uk|eu|nl|cn|sg|jp|kr|ly|xyz|site|online`

const topLevel = `com|org|net|edu|gov|int|info|io|ai|app|dev|ch|fr|de|uk|eu|it|es|at|be|nl|lu|li|cn|sg|jp|kr|us|ca|au|co|ly|me|tv|gl|tk|xyz|site|online`

// urlChars is a character of an address's path, or a part of it in
// parentheses ("wiki/Nadine_(robot)"), as Wikipedia's addresses hold.
// Chinese, Japanese and Korean text and their punctuation end it: those
// languages write the next word with no space ("wiki/Nadine上。").
const urlChars = `(?:[^\s<>"'“”«»()\]` + cjkText + `]|\([^\s()<>` + cjkText + `]*\))`

// listMark is a list's mark or a citation's number, optional, after a
// label's colon.
const listMark = `(?:\[\^?\d{1,3}\]|\d{1,2}[.)]|[-*•])?\s*`

// cjkText are the characters, inside a class, of text written without
// spaces (ideographs, kana, hangul) and of its punctuation (the CJK
// symbols and the full-width forms), none of which an address holds.
const cjkText = `\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}\x{3000}-\x{303F}\x{FF00}-\x{FFEF}`

var (
	mdLinkRE   = regexp.MustCompile(`\[([^\]\n]{1,80})\]\(\s*((?:[^()\s]|\([^()\s]*\))+)\s*\)`)
	emailRE    = regexp.MustCompile(`[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+`)
	urlRE      = regexp.MustCompile(`(?i)(?:\b(?:https?|ftp)://|\bwww\.)` + urlChars + `+|\b(?:[a-z0-9-]+\.)+(?:` + topLevel + `)\b(?:/` + urlChars + `*)?|` + pathHost)
	parenURLRE = regexp.MustCompile(`\s*[(\[]\s*(?:(?i:see|voir|siehe|详见|见)\s*:?\s*)?(?:` + urlRE.String() + `)\s*[)\]]`)
	// spokenAddressRE is an address spelled out as it would be read ("h t
	// t p s doppelpunkt slash slash miralab punkt ch", "w w w", "dot com").
	// "point" reads only the endings no word is ("point de vue", "point
	// at the map", "point it out" are words); "point de" at the end is ".de".
	spokenAddressRE = regexp.MustCompile(`(?i)\b(?:h\s+t\s+t\s+p\s*s?|w\s+w\s+w)\b|\b(?:slash|schrägstrich|barre oblique)\s+(?:slash|schrägstrich)\b|` +
		`\b(?:doppelpunkt|colon|deux[- ]points)\s+(?:slash|schrägstrich)|\b(?:dot|punkt)\s+(?:` + topLevel + `)\b|\bpoint\s+(?:` + spacedEndings + `|fr)\b|\bpoint\s+de\s*(?:$|[.,;!?/)])|\bat\s+(?:sign\s+)?\w+\s+dot\s+\w+|点(?:com|ch|cn|org)`)
	// ipRE is an IP address, with a port or a path ("192.168.1.10:8080/admin"):
	// four numbers with dots, which neither a date nor a sum writes.
	ipRE = regexp.MustCompile(`\b\d{1,3}(?:\.\d{1,3}){3}\b(?::\d{2,5})?(?:/[^\s<>"'“”«»)\]]*)?`)
	// handleRE is a social handle ("@NadineRobot", "@MIRALab_unige"): an @
	// that starts a word (an e-mail's is inside one).
	handleRE = regexp.MustCompile(`(?:^|[^\p{L}\p{N}._%+-])@[\p{L}\p{N}_]{2,30}`)
	// obfuscatedRE is a dot or an at sign written so that a filter misses
	// it ("miralab [dot] ch", "nadine (at) unige", "miralab . ch"): read as
	// the sign, the address is found as any other.
	// A dot in brackets ("miralab[.]ch"), a dot and a space before a known
	// ending in lowercase ("miralab. ch"), and "www ." are such dots too.
	// Only the endings no sentence begins with count with one space ("Mr.
	// de Gaulle", "e.g. it" are no addresses).
	obfuscatedRE = regexp.MustCompile(`(?i)\s*[\[(]\s*(dot|punkt|point|at|\.)\s*[\])]\s*|([\p{L}\p{N}])(?:\s+\.\s+(` + topLevel + `)|\.\s+((?-i:` + spacedEndings + `)))\b|\b(www)\s+\.\s*`)
	// defangedRE is an address made harmless for a filter ("hxxps://…")
	// or one of the machine itself ("localhost:8080").
	defangedRE = regexp.MustCompile(`(?i)\bhxxps?(?:://|\[:\]//)\S*|\blocalhost(?::\d{2,5})?(?:/\S*)?`)
	// pathRE is a file's path ("/etc/passwd", "~/notes/today.txt").
	pathRE = regexp.MustCompile(`(?:^|\s)~?/[\w.-]+/[\w.-][\w./-]*|(?:^|\s)/(?:etc|usr|var|home|tmp|bin|root|opt|proc|dev|admin)\b`)
	// mathRE is mathematical notation (LaTeX), which cannot be read out:
	// between dollars that touch what they hold, the closing one before no
	// digit, as TeX writes it ("$x^2$"); two prices are not ("$5 or $10").
	// A power or an index in plain text is notation too ("E = mc^2",
	// "H~2~O").
	mathRE = regexp.MustCompile(`\$[^$\s](?:[^$\n]{0,78}[^$\s])?\$(?:[^\d]|$)|\\(?:frac|sqrt|cdot|times|sum|int|alpha|beta|pi|circ)\b|\\[()\[\]]|[\p{L}\p{N})]\^[\p{N}(+-]|\p{L}~\d{1,3}~`)
	// dotLetterRE is a dot inside a word ("miralab.ch"), which every
	// address without a scheme holds.
	dotLetterRE = regexp.MustCompile(`[\p{L}\p{N}-]\.[\p{L}]`)
	// bareHostRE is an address without a scheme whose ending no list holds
	// ("nadine.robot", "events.miralab.museum"): labels of two signs or
	// more joined by dots, the ones after the first in small letters, the
	// last of letters alone. Initials ("e.g.", "J. R. R.", "z.B."), a
	// capital after the dot ("St.Gallen") and numbers ("3.5", "1.70 m")
	// have none of that shape.
	bareHostRE = regexp.MustCompile(`(?:^|[^A-Za-z0-9.@/_-])([A-Za-z0-9][A-Za-z0-9-]+(?:\.[a-z0-9][a-z0-9-]+)*\.[a-z]{2,12})(?:$|[^A-Za-z0-9@/_-])`)
	// spacedDotRE is a dot set apart between two words ("nadine . robot"),
	// which no sentence writes: read as the dot of an address.
	spacedDotRE = regexp.MustCompile(`([\p{L}\p{N}])[ \t]+\.[ \t]+([a-z]{2,12})\b`)
	// wrappedURLRE is an address cut by a line break after a dot or a
	// slash ("https://miralab.\nch/photos"): one address again.
	wrappedURLRE = regexp.MustCompile(`((?:https?://|www\.)\S*[./])[ \t]*\n[ \t]*([a-z0-9])`)
	// autolinkRE is an address in angle brackets ("<https://…>").
	autolinkRE = regexp.MustCompile(`<((?:https?|ftp)://[^\s<>]+|www\.[^\s<>]+|[\p{L}\p{N}._%+-]+@[^\s<>]+)>`)
	// spokenAtRE is an at sign said in words between two names ("nadine
	// arobase unige", "nadine ät miralab", "nadine艾特unige") or written
	// between them with no ending ("nadine@miralab").
	spokenAtRE = regexp.MustCompile(`(?i)[\p{L}\p{N}][ \t]+(?:arobase|ät|at[- ]sign)[ \t]+[\p{L}\p{N}]|[\p{L}\p{N}][ \t]*艾特[ \t]*[\p{L}\p{N}]|[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]{2,}`)
	// spokenHostRE is a host said with a spoken dot and a spoken slash or
	// a second spoken dot ("nadine dot robot slash news", "miralab point
	// unige point ch"), or a dot said as 点 between Latin labels
	// ("miralab点com", "nadine 点 robot").
	spokenHostRE = regexp.MustCompile(`(?i)\b\w+\s+(?:dot|punkt|point)\s+\w+\s+(?:dot|punkt|point|slash|schrägstrich)\s+\w+|[A-Za-z0-9]\s*点\s*[A-Za-z]{2,}`)
	// fileEndingRE is the ending of a file's name, not a website's
	// ("notes.txt", "photo.jpg", "Node.js").
	fileEndingRE = regexp.MustCompile(`(?i)\.(?:txt|pdf|docx?|xlsx?|pptx?|jpe?g|png|gif|svg|csv|json|xml|ya?ml|md|py|js|ts|go|rs|java|cpp|exe|zip|tar|gz|mp3|mp4|wav|mov)$`)
	// linkTalkRE is a link or a code pointed at on a screen that a voice
	// has not got: a QR code or a link below or above ("the QR code
	// below", "le lien ci-dessous", "QR-Code unten", "下方的二维码"), in
	// a bio, or an order (first in its clause) to click, tap or scan a
	// link, a code or "here" ("Scan the code below", "Cliquez ici",
	// "请扫描二维码"). "I can read QR codes", "I can't click links", a
	// ticket scanned or the link between two things is no such talk.
	linkTalkRE = regexp.MustCompile(`(?i)\b(?:QR[- ]?codes?|codes?\s+QR|links?|liens?)\s+(?:below|above|here|ci-dessous|ci-dessus|unten|oben)\b|` +
		`\b(?:follow|click|open|use|tap|visit)\s+(?:the|this|that|my|our)\s+links?\b|\b(?:folge|folgen\s+sie|offne|klicke?)\s+(?:dem|den|diesem|meinem)\s+link\b|` +
		`\b(?:below|above)\b[^.!?\n]{0,12}\b(?:links?|QR[- ]?codes?)\b|\blinks?\s+in\s+(?:my|the|our)\s+(?:bio|description|profile)\b|\blinked\s+(?:below|above)\b|` +
		`(?:^|[.!?:;,\n]\s*|\b(?:please|just|simply|einfach|bitte|s'il vous plaît)\s+)(?:click|tap|scan|cliquez|clique|scannez|scanne|scannen|klick\w*)\b[^.!?\n]{0,30}?\b(?:links?|lien|QR|code|ici|hier|here)\b|` +
		`(?:下方|下面|上方|上面|以下)的?(?:链接|二维码)|(?:^|[。！？，：\s]|请)(?:点击(?:这里|此处|链接|下方|下面)|扫描?[^。！？\n]{0,8}?码)`)
	// refLinkRE is a Markdown link by reference ("[on my page][1]").
	refLinkRE = regexp.MustCompile(`\[([^\]\n]{1,80})\]\s?\[[^\]\n]{0,20}\]`)
	// orgLinkRE is Org mode's link, "[[target][words]]".
	orgLinkRE = regexp.MustCompile(`\[\[([^\[\]\s]{1,200})\]\[([^\[\]\n]{1,80})\]\]`)
	// apposedRE is an address given as the object of "address", "link":
	// "at the address https://…" cannot take a website's name instead.
	// So is an address that is a field's value, after a label of up to
	// three words and its colon ("Source: https://…", "Website: …",
	// "来源：…"): a citation, not a sentence.
	// A list's mark or a citation's number may stand between the label and
	// its address ("Sources: 1. https://…", "Sources: [1] https://…").
	// So is an address an arrow points at ("Learn more → https://…"):
	// the arrow is a sign for the eye, and without it the words have a hole.
	apposedRE = regexp.MustCompile(`(?i)(?:address|adress|link|url|lien|adresse|地址|链接|网址)\s*[:：]?\s*$|(?:→|➡️?|👉|⇒|->|=>)\s*$` +
		`|(?:^|[.!?。！？\n]\s*)(?:[\p{L}'-]+\s+){0,2}[\p{L}'-]+\s*[:：]\s*` + listMark + `$|(?:^|[。！？\n])\p{Han}{1,6}\s*[:：]\s*` + listMark + `$`)
	// listedLinkRE is a line that is only a link, listed: a list's mark or
	// a citation's number, then an address or a Markdown link, and at most
	// a closing sign ("- [MIRALab](https://…)", "2. https://…", "[1] www.…").
	// A voice cannot follow it; named as a website, it is a sentence of no
	// verb that the heading above it ("Sources:", "参考资料：") introduced.
	listedLinkRE = regexp.MustCompile(`(?m)^[ \t]*(?:[-*•+>][ \t]*|\d{1,2}[.)][ \t]*|\[\^?\d{1,3}\][ \t]*)+[*_]{0,2}(?:\[[^\]\n]{1,80}\]\(\s*[^()\s]+\s*\)|<?(?:(?:https?|ftp)://|www\.)[^\s<>]+>?|(?:[A-Za-z0-9-]+\.)+(?:` + topLevel + `)(?:/\S*)?)[*_]{0,2}[ \t]*[.,;。]?[ \t]*$`)
)

var (
	// wideAddressRE is a run of full-width Latin letters and digits that
	// holds an address's dot, at or slash ("ｗｗｗ．ｍｉｒａｌａｂ．ｃｈ"):
	// read in its narrow form, the address is found as any other.
	wideAddressRE = regexp.MustCompile(`[Ａ-Ｚａ-ｚ０-９][Ａ-Ｚａ-ｚ０-９＿－]*(?:[．＠／：][Ａ-Ｚａ-ｚ０-９＿－]+)+`)
	// imageLinkRE is a Markdown image ("![Nadine smiling](https://…)"), or
	// a link to a picture's file ("[le labo]( /img/labo.png )"): a picture a
	// voice cannot show, its words a caption for the eye.
	imageLinkRE = regexp.MustCompile(`!\[[^\]\n]{0,120}\]\(\s*[^()\s]*(?:\([^()\s]*\)[^()\s]*)*\s*\)|\[[^\]\n]{0,120}\]\(\s*[^()\s]*\.` + spoken.PictureExt + `(?:\?[^()\s]*)?\s*\)`)
	// texSymbolAloneRE is one TeX symbol in dollars, a drawing, no formula.
	texSymbolAloneRE = regexp.MustCompile(`\$\\[a-zA-Z]{2,20}\$`)
	// referenceDefRE is the line that defines a Markdown reference link
	// ("[1]: https://miralab.ch"): the page's, never a sentence.
	referenceDefRE = regexp.MustCompile(`(?m)^[ \t]*\[[^\]\n]{1,40}\]:[ \t]*\S+.*$`)
	// quotedAddressRE is an address in quotation marks: the thing to type
	// or read letter by letter, which a website's name cannot replace.
	quotedAddressRE = regexp.MustCompile(`["“„«‘'「]\s*(?:(?:https?|ftp)://|www\.)?(?:[\p{Latin}\p{N}-]+\.)+\p{Latin}{2,}(?:/[^\s"”«»’']*)?\s*["”“»’'」]`)
)

var (
	// orderWordsRE are the words of an order to the model: its rules, its
	// prompt, or the model addressed. A link's words name where it leads,
	// never so.
	orderWordsRE = regexp.MustCompile(`(?i)\b(?:you|your|yourself|tu|ton|tes|vous|votre|vos|dein\w*|dich|instructions?|prompt|system prompt|consignes?|anweisung\w*|systemprompt|(?:all|the|your|previous|my|toutes les|tes|vos|alle|deine)\s+(?:rules|règles|regles|regeln))\b|你|您|规则|指令|提示词`)
	// quotedRE is a span in quotation marks.
	quotedRE = regexp.MustCompile(`'[^']{3,80}'|"[^"]{3,80}"|“[^”]{3,80}”|«[^»]{3,80}»|„[^“”]{3,80}[“”]|「[^」]{2,80}」`)
)

var (
	// codeSpanRE is a Markdown code span ("`sudo make me-a-sandwich`"),
	// not a fence's three backticks.
	codeSpanRE = regexp.MustCompile("(?:^|[^`])`[^`\n]{1,80}`")
	// codeSpanCodeRE is a code span's content that is code: two tokens or
	// more (a command, a statement), or a sign no word holds (a path, a
	// call, an option, an operator). One word in backticks is the word.
	codeSpanCodeRE = regexp.MustCompile(`\S\s+\S|[_./\\=(){}\[\]<>$|&;#~@*+^%]|^-`)
)

// hereLinkRE are a link's words that only point at the link ("here",
// "this link", "ici", "hier", "这里"): said without it, they point at nothing.
var hereLinkRE = regexp.MustCompile(`(?i)^\s*(?:(?:click\s+)?here|this(?:\s+link)?|(?:the\s+)?link|ici|ce\s+lien|(?:le\s+)?lien|hier|diesen?\s+link|(?:der\s+)?link|这里|此处|链接` +
	// A page with no name of its own ("my lab's page", "cette page",
	// "diese Seite", "这个页面"): said without its link, it is nowhere.
	`|(?:this|that|my|our|the|my\s+lab's|cette|ma|notre|la|diese|meine|unsere|die)\s+(?:page|web\s?page|seite|webseite|unterseite)|(?:这个|那个|我的)?(?:页面|网页))\s*$`)

// linkWords returns what a link's words say aloud: the words, or dropped
// when they only point at the link.
func linkWords(words string) string {
	if hereLinkRE.MatchString(words) {
		return dropped
	}
	return words
}

// dropped marks a sentence that held what is never said and cannot be
// rewritten: the whole sentence goes.
const dropped = "⟦not-spoken⟧"

// websiteNames says "the X website" where the phrase fits any place; German
// would need the preposition's case, so its sentence is dropped.
var websiteNames = map[nadine.Language]string{
	nadine.English: "the %s website",
	nadine.French:  "le site %s",
	nadine.Chinese: "%s网站",
}

// withoutImages removes the images of a text: one set apart (on its own
// line, before the text's first word, after a sentence's end and before a
// capital) goes alone; one inside a sentence takes the sentence with it.
func withoutImages(s string) string {
	locs := imageLinkRE.FindAllStringIndex(s, -1)
	for i := len(locs) - 1; i >= 0; i-- {
		a, b := locs[i][0], locs[i][1]
		before := strings.TrimRight(s[:a], " \t")
		after := strings.TrimLeft(s[b:], " \t")
		r, _ := utf8.DecodeRuneInString(after)
		apartBefore := before == "" || strings.HasSuffix(before, "\n") || strings.ContainsAny(before[len(before)-1:], ".!?")
		apartAfter := after == "" || strings.HasPrefix(after, "\n") || unicode.IsUpper(r)
		mark := dropped
		if apartBefore && apartAfter {
			mark = "\n"
		}
		s = s[:a] + mark + s[b:]
	}
	return s
}

// rewriteLinks names an address's website as the prompts spell it, or marks
// its sentence dropped; a Markdown link keeps its words, e-mail, a social
// handle and an IP address are dropped. A phone number is speech: a visitor
// may call it.
func rewriteLinks(text string, lang nadine.Language, spelled func(string) (string, bool)) string {
	s := text
	if strings.ContainsAny(s, "．＠／") {
		s = wideAddressRE.ReplaceAllStringFunc(s, width.Narrow.String)
	}
	if strings.Contains(s, "](") {
		// An image inside a sentence leaves it pointing at nothing ("Here
		// is a picture of me: …"): the sentence goes with it. One set apart,
		// on its line or before the first word, is pointed at by nothing.
		s = withoutImages(s)
	}
	s = spoken.WithoutForumImages(s, "\n")
	if strings.Contains(s, "$\\") {
		s = texSymbolAloneRE.ReplaceAllString(s, " ") // a symbol drawn in TeX ("$\heartsuit$"), no formula
	}
	if strings.Contains(s, "][") {
		s = orgLinkRE.ReplaceAllString(s, "[$2]($1)") // Org mode's "[[url][words]]" is a Markdown link
		s = refLinkRE.ReplaceAllString(s, "$1")       // "[on my page][1]": its words
	}
	if strings.Contains(s, "]:") {
		s = referenceDefRE.ReplaceAllString(s, "")
	}
	if strings.Contains(s, "\n") {
		s = wrappedURLRE.ReplaceAllString(s, "$1$2")
	}
	if strings.Contains(s, "<") {
		s = autolinkRE.ReplaceAllStringFunc(s, func(m string) string {
			if addr := m[1 : len(m)-1]; !addressOrders(addr) {
				return addr
			}
			return "" // a planted order set apart in its brackets: the sentence goes on without it
		})
	}
	if strings.Contains(s, " .") {
		s = spacedDotRE.ReplaceAllString(s, "$1.$2")
	}
	if strings.ContainsAny(s, "-*•+>.)]") {
		s = listedLinkRE.ReplaceAllString(s, dropped)
	}
	lower := strings.ToLower(s)
	s = obfuscatedRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := obfuscatedRE.FindStringSubmatch(m)
		switch {
		case sub[5] != "":
			return sub[5] + "."
		case sub[2] != "":
			return sub[2] + "." + sub[3] + sub[4]
		case strings.EqualFold(sub[1], "at"):
			return "@"
		}
		return "."
	})
	s = defangedRE.ReplaceAllString(s, dropped)
	if strings.Contains(s, "/") {
		s = pathRE.ReplaceAllString(s, " "+dropped)
	}
	if strings.Contains(s, "@") {
		s = emailRE.ReplaceAllString(s, dropped)
		s = handleRE.ReplaceAllString(s, " "+dropped)
	}
	s = ipRE.ReplaceAllString(s, dropped)
	for _, w := range []string{"@", "arobase", "ät", "艾特", "at-sign", "at sign"} {
		if strings.Contains(lower, w) {
			s = spokenAtRE.ReplaceAllString(s, dropped)
			break
		}
	}
	for _, w := range []string{"qr", "link", "lien", "click", "tap", "klick", "cliqu", "scan", "code", "码", "链接", "点击"} {
		if strings.Contains(lower, w) {
			s = linkTalkRE.ReplaceAllString(s, dropped)
			break
		}
	}
	for _, w := range []string{"点", " dot ", " punkt ", " point "} {
		if strings.Contains(lower, w) {
			s = spokenHostRE.ReplaceAllString(s, dropped)
			break
		}
	}
	for _, w := range []string{"slash", "dot", "punkt", "point", "h t t p", "w w w", "点"} {
		if strings.Contains(lower, w) {
			s = spokenAddressRE.ReplaceAllString(s, dropped)
			break
		}
	}
	if strings.ContainsAny(s, "$\\^~") {
		s = mathRE.ReplaceAllStringFunc(s, func(m string) string {
			if last, _ := utf8.DecodeLastRuneInString(m); m[0] == '$' && last != '$' {
				return dropped + string(last) // the sign after a formula is the sentence's ("$E = mc^2$. Physics…")
			}
			return dropped
		})
	}
	if strings.Count(s, "`") >= 2 {
		s = spoken.WithoutEdgeCode(s) // at a sentence's edge, code goes and leaves no hole
		s = codeSpanRE.ReplaceAllStringFunc(s, func(m string) string {
			lead, span, _ := strings.Cut(m, "`")
			if codeSpanCodeRE.MatchString(strings.TrimSuffix(span, "`")) {
				return lead + dropped
			}
			return m
		})
	}
	if !strings.Contains(s, "://") && !strings.Contains(lower, "www.") && !dotLetterRE.MatchString(s) {
		return s // no address left to find
	}
	linked := false
	s = mdLinkRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := mdLinkRE.FindStringSubmatch(m)
		linked = true
		if urlRE.MatchString(sub[1]) {
			return sub[2] // the words are an address too: the address is handled below
		}
		if orderWordsRE.MatchString(sub[1]) {
			return dropped // the words tell the model what to do, not where the link goes
		}
		return linkWords(sub[1])
	})
	if linked || len(addressesIn(s)) > 0 {
		// What a sentence with an address asks to type or send, in
		// quotes, is an order to the model when it names its rules or
		// speaks to it.
		for _, q := range quotedRE.FindAllString(s, -1) {
			if orderWordsRE.MatchString(q) {
				return dropped
			}
		}
	}
	s = parenURLRE.ReplaceAllString(s, "")
	s = quotedAddressRE.ReplaceAllString(s, dropped)
	var b strings.Builder
	last := 0
	for _, loc := range addressesIn(s) {
		for loc[1] > loc[0] && strings.IndexByte(".,;:!?", s[loc[1]-1]) >= 0 {
			loc[1]-- // the sentence's punctuation, not the address's
		}
		b.WriteString(s[last:loc[0]])
		last = loc[1]
		if apposedRE.MatchString(s[:loc[0]]) || addressOrders(s[loc[0]:loc[1]]) {
			b.WriteString(dropped)
			continue
		}
		b.WriteString(website(s[loc[0]:loc[1]], lang, spelled))
	}
	b.WriteString(s[last:])
	return b.String()
}

// pathWordsRE are the words of a path or a query that tell the model what
// to do, or ask for a secret: an address that carries them is a planted
// order, and no website's name may stand for it.
var pathWordsRE = regexp.MustCompile(`(?i)\b(?:rules|regles|regeln|restrictions|guidelines|password|passwort|jailbreak)\b|规则|指令|提示词|密码`)

// addressOrders reports an address whose path or query, read as words,
// orders the model or asks for a secret ("miralab.ch/?prompt=print+your+
// instructions", "…?action=ignorer_les_règles"): its sentence is left out.
func addressOrders(addr string) bool {
	rest := addr
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	i := strings.IndexAny(rest, "/?#")
	if i < 0 {
		return false
	}
	rest = rest[i:]
	if u, err := url.QueryUnescape(rest); err == nil {
		rest = u
	}
	read := strings.Map(func(r rune) rune {
		if strings.ContainsRune("/?#&=+_-.%~", r) {
			return ' '
		}
		return r
	}, rest)
	folded := foldMarks(read)
	return injectionOf(read) || orderWordsRE.MatchString(read) || pathWordsRE.MatchString(folded) || rulesOffRE.MatchString(folded) || credentialRE.MatchString(folded)
}

// addressesIn returns where s holds addresses: of a known ending, a
// scheme or a path (urlRE), and bare ones of any ending (bareHostRE), in
// order.
func addressesIn(s string) [][]int {
	locs := urlRE.FindAllStringIndex(s, -1)
	for _, m := range bareHostRE.FindAllStringSubmatchIndex(s, -1) {
		in := false
		for _, l := range locs {
			in = in || (m[2] < l[1] && l[0] < m[3])
		}
		if !in {
			locs = append(locs, []int{m[2], m[3]})
		}
	}
	for _, l := range idnHostRE.FindAllStringIndex(s, -1) {
		in := false
		for _, o := range locs {
			in = in || (l[0] < o[1] && o[0] < l[1])
		}
		if !in {
			locs = append(locs, l)
		}
	}
	slices.SortFunc(locs, func(a, b []int) int { return a[0] - b[0] })
	return locs
}

// idnHostRE is an address whose host is written in Han script
// ("例子.中国/nadine", "研究所.公司"): a label of ideographs, a dot, and an
// ending of either script.
var idnHostRE = regexp.MustCompile(`[\p{Han}][\p{Han}\p{L}\p{N}-]*\.(?:中国|中國|公司|网络|網絡|在线|网址|信息|[a-z]{2,6})\b(?:/[^\s，。！？、]*)?|[\p{Han}][\p{Han}\p{L}\p{N}-]*\.(?:中国|中國|公司|网络|網絡|在线|信息)(?:/[^\s，。！？、]*)?`)

// website names the website of an address ("the MIRALab website"), or
// returns dropped.
func website(addr string, lang nadine.Language, spelled func(string) (string, bool)) string {
	phrase, ok := websiteNames[lang.Or(nadine.English)]
	if !ok {
		return dropped
	}
	host := strings.ToLower(addr)
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	if i := strings.IndexAny(host, "/?#:"); i >= 0 {
		host = host[:i]
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "www."), ".")
	if fileEndingRE.MatchString(host) {
		return dropped // a file's name: no website to name
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return dropped
	}
	name := labels[len(labels)-2]
	if len(labels) >= 3 && len(name) <= 3 && (name == "co" || name == "com" || name == "ac" || name == "gov" || name == "org" || name == "edu") {
		name = labels[len(labels)-3] // bbc.co.uk
	}
	s, known := spelled(name)
	if utf8.RuneCountInString(name) < 4 || strings.IndexFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && (r != '-' || !known) }) >= 0 {
		// A shortener or a code, not a name; a label of joined words
		// ("unige-verify", "nadine-robot") is the address's own, said
		// only as the prompts write it.
		return dropped
	}
	if known {
		name = s
	} else {
		r, size := utf8.DecodeRuneInString(name)
		name = string(unicode.ToUpper(r)) + name[size:]
	}
	return strings.Replace(phrase, "%s", name, 1)
}
