package spoken

import (
	"html"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Software between a model and the robot marks text up too: a translation
// API spaces or cuts its entities, a PDF copy keeps its cut words, page
// numbers and ligatures, a subtitle file its timecodes, a chat export its
// stamps, a page its breadcrumbs, a font its look-alike brackets and stars.
// softwareForms reads each back as the text it stands for, before the
// markup's own rules run, so that they see the forms they know.

var (
	// wideAngles and wideSquares are brackets of other widths, and stars
	// of other shapes, that a model or a font writes for ASCII's markup
	// ("⟨sourire⟩", "〚salue〛", "⁎sourit⁎").
	otherShapes = strings.NewReplacer("⟨", "<", "⟩", ">", "〈", "<", "〉", ">", "〈", "<", "〉", ">", "＜", "<", "＞", ">",
		"〚", "[", "〛", "]",
		"∗", "*", "⁎", "*", "✱", "*", "⋆", "*", "﹡", "*", "✲", "*", "✳", "*", "＊", "*")
	// quotedTagRE is a tag written between single or double guillemets
	// ("‹b›", "«/b»").
	quotedTagRE = regexp.MustCompile(`[‹«]\s?(/?)([A-Za-z][A-Za-z0-9]{0,9})\s?[›»]`)
	// spacedEntityRE is a numbered entity a translation spaced ("& # 39;");
	// lostAmpRE one that lost its ampersand ("#39;", "nbsp;", "quot;").
	spacedEntityRE = regexp.MustCompile(`&\s*#\s*(\d{2,7})\s*;|&\s+;`)
	lostAmpRE      = regexp.MustCompile(`#(\d{2,7});|(` + strings.Join(usualEntities, "|") + `);|(^|[\s(])(\d{2,5});(\p{L})`)
	// supRE is a number or letters set in superscript or subscript by tags
	// ("2008<sup>1</sup>", "m<sup>2</sup>", "1<sup>er</sup>").
	supRE = regexp.MustCompile(`(?i)(\S?)<(sup|sub)>\s*([0-9]{1,3}|[\p{L}]{1,3})\s*</(?:sup|sub)>`)
	// noteLetterRE is a footnote's letter or roman numeral in brackets glued
	// to its word ("MIRALab[a]", "[ii]"); scriptParensRE a footnote's
	// brackets in superscript or subscript ("⁽¹⁾", "₍₁₎").
	noteLetterRE   = regexp.MustCompile(`(\p{L})\[(?:[a-h]|[ivx]{1,4})\]`)
	scriptParensRE = regexp.MustCompile(`[⁽₍][⁰¹²³⁴-⁹₀-₉]*[⁾₎]|[⁽⁾₍₎]`)
	// cutWordRE is a word cut at a line's end by a hyphen (a PDF's
	// justification: "sou-\nrire"), or by quoted-printable's soft break
	// ("MIRA=\nLab").
	cutWordRE = regexp.MustCompile(`(\p{Ll})-[ \t]*\r?\n[ \t]*(\p{Ll})|(\p{L})=\r?\n(\p{L})`)
	// enclosingCapRE is a digit or sign in a keycap or a circle drawn by an
	// enclosing mark ("1⃣", "1⃝"): a list's mark.
	enclosingCapRE = regexp.MustCompile(`[0-9#*][\x{FE0E}\x{FE0F}]?[\x{20DD}-\x{20E4}]`)
	// speechCommandRE is an embedded command of a speech engine ("[[slnc
	// 300]]", "[[rate 140]]", Apple's).
	speechCommandRE = regexp.MustCompile(`\[\[\s*(?:slnc|rate|pbas|pmod|volm|emph|rset|char|nmbr|inpt|cmnt|sync)\b[^\]\n]{0,30}\]\]`)
	// timecodeRE is a subtitle's timecode (seconds with their fraction), an
	// arrow between two, and the cue's settings after them.
	timecodeRE = regexp.MustCompile(`(?:\b\d{1,2}:)?\d{1,2}:\d{2}[.,]\d{2,3}\b(?:\s*-->\s*(?:\d{1,2}:)?\d{1,2}:\d{2}[.,]\d{2,3}\b)?(?:\s+(?:align|position|line|size|vertical|region):\S+)*`)
	// assDialogueRE is the fields of an ASS subtitle's line before its text.
	assDialogueRE = regexp.MustCompile(`(?m)^Dialogue:\s*\d+,[^,\n]*,[^,\n]*,[^,\n]*,[^,\n]*,\d+,\d+,\d+,[^,\n]*,`)
	// stampLeadRE is a chat export's stamp and sender before a message
	// ("03/12/2026, 14:02 - Nadine: ", "[14:03, 12/03/2024] Nadine MIRALab: ").
	stampLeadRE = regexp.MustCompile(`(?m)^[ \t]*\[?(?:\d{1,2}[/.]\d{1,2}[/.]\d{2,4},?[ \t]*(?:à[ \t]*)?\d{1,2}[:h]\d{2}|\d{1,2}[:h]\d{2},?[ \t]*\d{1,2}[/.]\d{1,2}[/.]\d{2,4})\]?[ \t]*(?:[-–—][ \t]*)?(?:[\p{L}'’. ]{1,30}:[ \t]*)?`)
	// stampLineRE is a line that is only a sender and when ("Nadine —
	// Aujourd'hui à 14:02") or a post's byline ("Posté par Nadine le
	// 12/03/2024 à 14h02", "Publié le 3 décembre 2026").
	stampLineRE = regexp.MustCompile(`(?im)^[ \t]*(?:[\p{L} ]{1,30}[ \t][—–-][ \t](?:aujourd'hui|aujourd’hui|hier|today|yesterday|heute|gestern)[ \t](?:à|at|um)[ \t]\d{1,2}[:h]\d{2}|(?:posté|publié|modifié|mis à jour|posted|published|updated|edited|last edited|veröffentlicht|aktualisiert)\b[^\n]{0,60}\d[^\n]{0,30})[ \t]*\.?[ \t]*$`)
	// pageNumberLineRE is a page's number on its own line ("3 / 12",
	// "Page 3 sur 12").
	pageNumberLineRE = regexp.MustCompile(`(?im)^[ \t]*(?:(?:page|seite)[ \t]+)?\d{1,4}[ \t]*(?:/|sur|of|von)[ \t]*\d{1,4}[ \t]*\.?[ \t]*$|^[ \t]*(?:page|seite)[ \t]+\d{1,4}[ \t]*\.?[ \t]*$`)
)

// breadcrumbSeps are the signs a page's trail of links is parted with.
const breadcrumbSeps = "›>»/·|→"

// softwareForms reads back what software between the model and the robot
// wrote (softwareForms' comment above).
func softwareForms(s string) string {
	if strings.ContainsAny(s, "⟨⟩〈〉〈〉＜＞〚〛∗⁎✱⋆﹡✲✳＊") {
		s = otherShapes.Replace(s)
	}
	if strings.ContainsAny(s, "‹«") {
		s = quotedTagRE.ReplaceAllStringFunc(s, func(m string) string {
			sm := quotedTagRE.FindStringSubmatch(m)
			if !HTMLElement(strings.ToLower(sm[2])) {
				return m
			}
			return "<" + sm[1] + sm[2] + ">"
		})
	}
	if strings.Contains(s, "&") {
		s = spacedEntityRE.ReplaceAllStringFunc(s, func(m string) string {
			sm := spacedEntityRE.FindStringSubmatch(m)
			return codePoint(sm[1])
		})
	}
	if strings.Contains(s, ";") {
		s = withoutLostAmps(s)
	}
	if strings.Contains(s, "<s") || strings.Contains(s, "<S") {
		s = supRE.ReplaceAllStringFunc(s, func(m string) string {
			sm := supRE.FindStringSubmatch(m)
			before, tag, inner := sm[1], strings.ToLower(sm[2]), sm[3]
			if inner[0] >= '0' && inner[0] <= '9' {
				return before + scripted(inner, tag == "sub")
			}
			if before != "" && (unicode.IsDigit(rune(before[0])) || strings.ContainsAny(before, "IVXLC")) {
				return before + inner // an ordinal: "1<sup>er</sup>", "XIX<sup>e</sup>"
			}
			return before // a footnote's letter
		})
	}
	if strings.Contains(s, "[") {
		s = noteLetterRE.ReplaceAllString(s, "$1")
		if strings.Contains(s, "[[") {
			s = speechCommandRE.ReplaceAllString(s, " ")
		}
	}
	if strings.ContainsAny(s, "⁽⁾₍₎") {
		s = scriptParensRE.ReplaceAllString(s, "")
	}
	if strings.Contains(s, "-\n") || strings.Contains(s, "=\n") || strings.Contains(s, "-\r\n") || strings.Contains(s, "- \n") {
		s = cutWordRE.ReplaceAllString(s, "$1$2$3$4")
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r >= 0xFB00 && r <= 0xFB06 }) {
		s = strings.Map(func(r rune) rune {
			if r >= 0xFB00 && r <= 0xFB06 {
				return -1
			}
			return r
		}, strings.NewReplacer("ﬀ", "ff", "ﬁ", "fi", "ﬂ", "fl", "ﬃ", "ffi", "ﬄ", "ffl", "ﬅ", "st", "ﬆ", "st").Replace(s))
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r >= 0x20DD && r <= 0x20E4 }) {
		s = enclosingCapRE.ReplaceAllString(s, "")
	}
	if strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Mn, r) }) {
		s = norm.NFC.String(s) // accents typed as marks are the letter's; what marks remain are drawn
	}
	if strings.Contains(s, ":") {
		if strings.Contains(s, "Dialogue:") {
			s = assDialogueRE.ReplaceAllString(s, "")
		}
		s = timecodeRE.ReplaceAllString(s, " ")
		s = stampLeadRE.ReplaceAllString(s, "")
	}
	if strings.ContainsAny(s, "0123456789") {
		s = stampLineRE.ReplaceAllString(s, "")
		s = pageNumberLineRE.ReplaceAllString(s, "")
	}
	if strings.ContainsAny(s, breadcrumbSeps) {
		s = withoutBreadcrumbs(s)
	}
	return s
}

// codePoint is the character an entity's number names, or a space for none
// (a control, a surrogate, past Unicode).
func codePoint(n string) string {
	v, err := strconv.Atoi(n)
	if err != nil || v < 32 || v > unicode.MaxRune || v >= 0xD800 && v <= 0xDFFF || v >= 0x7F && v < 0xA0 {
		return " "
	}
	return string(rune(v))
}

// scripted writes digits in superscript, or in subscript.
func scripted(digits string, sub bool) string {
	sup := []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")
	lo := []rune("₀₁₂₃₄₅₆₇₈₉")
	var b strings.Builder
	for _, d := range digits {
		if sub {
			b.WriteRune(lo[d-'0'])
		} else {
			b.WriteRune(sup[d-'0'])
		}
	}
	return b.String()
}

// breadcrumbLeadRE is what leads a trail in words ("Vous êtes ici :").
var breadcrumbLeadRE = regexp.MustCompile(`(?i)^(?:vous êtes ici|you are here|sie sind hier)\s*:\s*`)

// withoutBreadcrumbs removes a line that is a page's trail of links: three
// parts or more of one to three words, each a capital's, parted by one sign
// ("Accueil › Visites › Nadine").
func withoutBreadcrumbs(s string) string {
	lines := strings.Split(s, "\n")
	var out []string
	for i, line := range lines {
		sep := breadcrumb(breadcrumbLeadRE.ReplaceAllString(strings.TrimSpace(line), ""))
		parted := func(j int) bool { return j >= 0 && j < len(lines) && strings.Count(lines[j], " "+sep+" ") >= 2 }
		if sep == "" || parted(i-1) || parted(i+1) {
			out = append(out, line) // not a trail, or a table's row: its neighbours are parted alike
		}
	}
	return strings.Join(out, "\n")
}

// breadcrumb returns the sign a line that is a trail of links is parted
// with, or "".
func breadcrumb(l string) string {
	l = strings.TrimRight(l, ". ")
	for _, sep := range breadcrumbSeps {
		parts := strings.Split(l, " "+string(sep)+" ")
		if len(parts) < 3 {
			continue
		}
		ok := true
		for _, p := range parts {
			ws := strings.Fields(p)
			if len(ws) == 0 || len(ws) > 3 || !unicode.IsUpper([]rune(ws[0])[0]) || strings.ContainsAny(p, ".!?,;:") {
				ok = false
				break
			}
		}
		if ok {
			return string(sep)
		}
	}
	return ""
}

// withoutLostAmps reads an entity that lost its ampersand ("#39;", "nbsp;",
// "8217;est"); one whose ampersand is there, or was escaped ("&amp;lt;",
// "& nbsp;"), is the entity reader's.
func withoutLostAmps(s string) string {
	locs := lostAmpRE.FindAllStringSubmatchIndex(s, -1)
	var b strings.Builder
	last := 0
	for _, m := range locs {
		if before := strings.TrimRight(s[:m[0]], " "); strings.HasSuffix(before, "&") || strings.HasSuffix(before, "#") {
			continue
		}
		sub := func(i int) string {
			if m[2*i] < 0 {
				return ""
			}
			return s[m[2*i]:m[2*i+1]]
		}
		var with string
		switch {
		case sub(1) != "":
			with = codePoint(sub(1))
		case sub(2) != "":
			with = html.UnescapeString("&" + sub(2) + ";")
		default:
			c := codePoint(sub(4))
			if c == " " {
				continue
			}
			with = sub(3) + c + sub(5)
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(with)
		last = m[1]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}
