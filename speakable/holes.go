package speakable

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/nadine-robot/nadine/spoken"
)

// A sentence left with holes where something was cut ("You can read all
// about me at or on Wikipedia", "Mehr erfahren Sie unter .", "请见 。") is
// not said: the "never leave a sentence with holes" holds for the
// holes a model's own output or an earlier cleaning left too. A hole is read
// from structure: two prepositions of place joined with nothing between
// them, or a preposition whose object is only a space before a comma or a
// full stop (docs/speech.md, "The issue's own list").

// holeRE are the holes, in the four languages. Read folded (foldMarks).
// "On and on", "in and out" and "on or before Friday" join no two
// prepositions of place: they are speech.
var holeRE = regexp.MustCompile(`(?i)\b(?:at|on|via|under)\s+(?:or|and)\s+(?:at|via|under)\b|\bat\s+(?:or|and)\s+on\b` +
	`|\b(?:sur|via|sous)\s+(?:ou|et)\s+(?:sur|via)\b` +
	`|\b(?:auf|unter|bei|via)\s+(?:oder|und)\s+(?:auf|unter|bei|via)\b` +
	`|\b(?:at|on|via|from|to|visit|sur|via|chez|unter|auf|bei|besuchen\s+sie)\s+[,.;:](?:\s|$)` +
	`|在\s*(?:或者|或|和)\s*(?:在\s*)?上|在\s+上|(?:访问|请见|见|登录)\s+[。，,.]` +
	// The same holes set off by commas ("at, or on, Wikipedia"), a
	// lead-in whose colon is followed by nothing ("Read about me here: ."),
	// an address's scheme left alone ("Visit https:// for more") and the
	// placeholder a template left for one ("at <URL>", "[link]").
	`|\b(?:at|on|via|sur|unter|auf)\s*,\s*(?:or|and|ou|et|oder|und)\b` +
	`|[\p{L}\p{N}][ \t]*[:：][ \t]*[.。!?！？](?:\s|$)` +
	`|\b(?:https?|ftp)\s*:\s*/*(?:\s|$)|\bwww\.(?:\s|$)` +
	`|[<\[{]\s*(?:url|link|links|website|web\s*site|web\s+address|e-?mail(?:\s+address)?|lien|site(?:\s+web)?|adresse(?:\s+web)?|webseite|webadresse|链接|网址)(?:\s+[\p{L}\p{N}]+){0,2}\s*[>\]}]`)

// placeholderRE is a template's variable never filled, in the forms
// templates write them: "[NAME]", "<Name>", "$name", "%s", "%(name)s"
// (braces, "{name}", are code and refused as such). Read as written (not
// folded): its capitals tell "[NAME]" from a stage direction.
var placeholderRE = regexp.MustCompile(`\[[A-Z][A-Z_ ]{1,25}\]|\[(?:Prénom|Prenom|Nom|Name|Vorname|Nachname|First name|Your name|Votre prénom|Dein Name|Ihr Name|名字|姓名)\]|<[A-Z][a-z]{1,15}(?:[ _][A-Za-z]{1,15})?>|\$[A-Za-z_]{2,20}\b|%[sd]\b|%\([a-z_]{1,20}\)[sd]`)

// holed reports whether a sentence was left with holes, or with a
// template's placeholder where a word should be.
func holed(s string) bool {
	return holeRE.MatchString(foldMarks(s)) || placeholderRE.MatchString(s) || slotRE.MatchString(s) || describedSlot(s) || pagePointerRE.MatchString(s)
}

// pagePointerRE points at a part of a page, which a voice has not: what is
// "ci-dessous" was cut, or was never said ("Les horaires sont indiqués
// ci-dessous.", "as shown below", "wie unten stehend", "如下表").
var pagePointerRE = regexp.MustCompile(`(?i)\bci-(?:dessous|dessus|joint|après)\b|\b(?:see|listed|shown|given|described|detailed)\s+(?:below|above)\b|\bthe (?:table|list|figure) (?:below|above)\b|\b(?:untenstehend|obenstehend|nachfolgend|im folgenden|siehe unten|siehe oben)\b|如下表|见下|下表|上表|下图|上图`)

// slotRE is a slot a writer left: an order to fill it in brackets ("[insérer
// le nom ici]", "[insert name]"), a writer's marker ("TODO", "FIXME",
// "XXX"), filler text ("lorem ipsum"), a template's variable ("%nom%",
// "<%= prenom %>"), printf's ("%1$s"), a
// name in capitals between underscores or brackets ("__PRENOM__",
// "[PRÉNOM]").
var slotRE = regexp.MustCompile(`\[(?i:insérer|inserer|insert|einfügen|ajouter|add|remplacer|replace|ersetzen|à compléter|to be)\b[^\]\n]{0,40}\]|\b(?:TODO|FIXME|TBD|XXX)\b|(?i:\blorem ipsum\b)|%\p{L}[\p{L}_]{1,20}%|<%=?[^%\n]{1,40}%>|%\d{1,2}(?:\$[sd])?\b|__[\p{Lu}_]{2,30}__|\[[\p{Lu}_]{3,30}\]`)

// angleSpanRE is words in angle brackets or chevrons, no attribute in
// them.
var angleSpanRE = regexp.MustCompile(`[<‹]\s*([^<>‹›=\n]{1,40}?)\s*[>›]`)

// describedSlot reports words in angle brackets or chevrons that stand for
// what should be there ("<nom du visiteur>", "<Madame/Monsieur>",
// "‹prénom>"): several words, a choice, or a name no HTML tag has.
func describedSlot(s string) bool {
	if !strings.ContainsAny(s, "<‹") {
		return false
	}
	for _, m := range angleSpanRE.FindAllStringSubmatch(s, -1) {
		inner := m[1]
		if strings.IndexFunc(inner, unicode.IsLetter) != 0 || spoken.HTMLElement(strings.TrimSpace(inner)) {
			continue // a number compared, a tag
		}
		if ws := strings.Fields(inner); len(ws) >= 2 || strings.ContainsAny(inner, "/") || strings.ContainsFunc(inner, func(r rune) bool { return r > unicode.MaxASCII }) {
			return true // several words, a choice ("Madame/Monsieur"), a name no tag has ("prénom")
		}
	}
	return false
}
