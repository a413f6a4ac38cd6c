package spoken

import (
	"html"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Software between a model and the robot marks text up too: a translation
// API spaces or cuts its entities, a PDF copy keeps its cut words, page
// numbers and ligatures, a subtitle file its timecodes, a chat export its
// stamps, a page its breadcrumbs, a font its look-alike brackets and stars.
// softwareForms reads each back as the text it stands for, before the
// markup's own rules run, so that they see the forms they know.

var (
	// otherShapes are brackets of other widths, and stars of other shapes,
	// that a model or a font writes for ASCII's markup ("⟨sourire⟩",
	// "〚salue〛", "⁎sourit⁎"); Chinese's own "〈 〉" stay round a title (cjkAngleRE).
	otherShapes = strings.NewReplacer("⟨", "<", "⟩", ">", "〈", "<", "〉", ">", "＜", "<", "＞", ">",
		"〚", "[", "〛", "]",
		"∗", "*", "⁎", "*", "✱", "*", "⋆", "*", "﹡", "*", "✲", "*", "✳", "*", "＊", "*")
	// cjkAngleRE is Chinese's angle brackets around words with no
	// ideograph: a tag's or a slot's ("〈prénom〉"), not a title's.
	cjkAngleRE = regexp.MustCompile("\u3008([^\u3008\u3009\\p{Han}\n]{1,40})\u3009")
	// ligatures are Latin's, as a PDF's copy keeps them ("conﬁance").
	ligatures = strings.NewReplacer("ﬀ", "ff", "ﬁ", "fi", "ﬂ", "fl", "ﬃ", "ffi", "ﬄ", "ffl", "ﬅ", "st", "ﬆ", "st")
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
	noteLetterRE   = regexp.MustCompile(`(\p{L})\[(?:[a-h]|[ivx]{1,4})\]|(\p{L}{2})\(\d{1,2}\)`)
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
	stampLineRE = regexp.MustCompile(`(?im)^[ \t]*(?:[\p{L} ]{1,30}[ \t][—–-][ \t](?:aujourd'hui|aujourd’hui|hier|today|yesterday|heute|gestern)[ \t](?:à|at|um)[ \t]\d{1,2}[:h]\d{2}|(?:posté|publié|modifié|mis à jour|posted|published|updated|edited|last edited|veröffentlicht|aktualisiert)[ \t][^\n]{0,60}\d[^\n]{0,30})[ \t]*\.?[ \t]*$`)
	// pageNumberLineRE is a page's number on its own line ("3 / 12",
	// "Page 3 sur 12").
	pageNumberLineRE = regexp.MustCompile(`(?im)^[ \t]*(?:(?:page|seite|p\.)[ \t]*)?\d{1,4}[ \t]*(?:/|sur|of|von)[ \t]*\d{1,4}[ \t]*\.?[ \t]*$|^[ \t]*(?:page|seite)[ \t]+\d{1,4}[ \t]*\.?[ \t]*$`)
)

var (
	// numberedTitleRE is a title's number at a line's start, before a title
	// with no sentence's end ("### 2.1 Les automates", "## II. Les
	// automates").
	numberedTitleRE = regexp.MustCompile(`(?m)^([ \t]*(?:#{1,6}[ \t]*)?)(?:\d{1,2}(?:\.\d{1,2})+\.?|[IVX]{1,4}\.)[ \t]+(\p{Lu}[^\n.!?]{0,60})$`)
	// sectionNumberRE is a section's number in a running list ("1.1 les
	// automates, 1.2 les robots").
	sectionNumberRE = regexp.MustCompile(`(^|[\s:,;])(\d{1,2})\.(\d{1,2})\s+(\p{L})`)
	// qaLabelRE is a question's or an answer's label in a FAQ ("Q :",
	// "R1 :", "A.", "Q/R —").
	qaLabelRE = regexp.MustCompile(`(^|[.!?…]\s+|\n\s*)(?:Q/[RA]\s*[—–:-]|[QRA]\d{0,2}\s?[:.)])\s+`)
	// pageChromeLineRE is a line of a page's furniture around an article:
	// its links to read on, to share, to the posts before and after, its
	// keywords.
	pageChromeLineRE = regexp.MustCompile(`(?im)^[ \t]*(?:(?:lire la suite|read more|continue reading|weiterlesen)[ \t]*[→»›.…]*[ \t]*$|partager[ \t]*:|share(?: this)?[ \t]*:|teilen[ \t]*:|article (?:précédent|suivant)|(?:previous|next) (?:post|article)|(?:vorheriger|nächster) (?:beitrag|artikel)|←[ \t]*(?:précédent|previous|zurück)|mots-clés[ \t]*:|tags[ \t]*:|schlagwörter[ \t]*:)[^\n]*$`)
	// latinByteRE is a Latin-1 letter (À to ÿ) escaped alone ("Gen%E8ve",
	// "Gen%u00E8ve", quoted-printable's "Gen=E8ve"), and qpSpaceRE
	// quoted-printable's space or sign between words ("Nadine,=20le").
	latinByteRE = regexp.MustCompile(`%u([0-9A-Fa-f]{4})|(\p{L})(?:%|=)([C-F][0-9A-F])(\p{L})`)
	qpSpaceRE   = regexp.MustCompile(`([\p{L},.;:!?])=(2[0-9A-F])(\p{L})|(\s)=(2[0-9A-F])(\s)`)
	// slashCommandRE is a chat's command opening a sentence ("/sourire
	// Bonjour !").
	slashCommandRE = regexp.MustCompile(`^/\p{Ll}{2,20}\s+(\p{Lu})`)
	// bareAttributesRE is a tag that lost its "<", its attributes unquoted
	// ("span class=intro>Je suis").
	bareAttributesRE = regexp.MustCompile(`(?:^|\s)[a-z]{1,10}(?:\s+[a-z-]{2,15}=[^\s<>"']{1,40})+\s*>`)
	// qaSentenceRE is a FAQ's label opening a sentence.
	qaSentenceRE = regexp.MustCompile(`^(?:Q/[RA]\s*[—–:-]|[QRA]\d{0,2}\s?[:.])\s+`)
	// fieldLineStartRE is a field list's line in reStructuredText
	// (":Auteur: Nadine").
	fieldLineStartRE = regexp.MustCompile(`(?m)^[ \t]*:[\p{L}][\p{L} _-]{0,20}:[ \t]+[^\n]*$`)
	// gluedNoteRE is a footnote's number glued to a word of three small
	// letters or more ("automates3 datent").
	gluedNoteRE = regexp.MustCompile(`(\p{Ll}{3})[1-9]([\s.,;:!?)]|$)`)
	// noteLineRE is a line that starts with a footnote's mark.
	noteLineRE = regexp.MustCompile(`^[ \t]*(\(\d{1,2}\)|\[\^?\d{1,2}\]:?|\*{1,3}|[¹²³⁴-⁹]+)[ \t]+\S`)
	// quotePairRE is a forum's quotation of another's message.
	quotePairRE = regexp.MustCompile(`(?is)\[quote(?:=[^\]]{0,40})?\].*?\[/quote\]`)
)

// breadcrumbSeps are the signs a page's trail of links is parted with.
const breadcrumbSeps = "›>»/·|→"

// softwareForms reads back what software between the model and the robot
// wrote (softwareForms' comment above).
func softwareForms(s string) string {
	if strings.ContainsAny(s, "⟨⟩〈〉＜＞〚〛∗⁎✱⋆﹡✲✳＊") {
		s = otherShapes.Replace(s)
	}
	if strings.Contains(s, "\n") {
		s = withoutNotesAndQuotes(s) // before a note's mark goes from its word
	}
	if strings.ContainsRune(s, '\u3008') {
		s = cjkAngleRE.ReplaceAllString(s, "<$1>")
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
			return codePoint(atoi(sm[1]))
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
	if strings.ContainsAny(s, "[(") {
		s = noteLetterRE.ReplaceAllString(s, "$1$2")
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
		s = ligatures.Replace(s)
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
	if strings.Contains(s, ".") {
		s = numberedTitleRE.ReplaceAllString(s, "$1$2")
	}
	if strings.ContainsAny(s, "%=") && !strings.Contains(s, "://") { // an address's query is the address's
		s = latinByteRE.ReplaceAllStringFunc(s, func(m string) string {
			sm := latinByteRE.FindStringSubmatch(m)
			if sm[1] != "" {
				return codePoint(hexValue(sm[1]))
			}
			return sm[2] + string(rune(hexValue(sm[3]))) + sm[4]
		})
		s = qpSpaceRE.ReplaceAllStringFunc(s, func(m string) string {
			sm := qpSpaceRE.FindStringSubmatch(m)
			if sm[1] != "" {
				return sm[1] + string(rune(hexValue(sm[2]))) + sm[3]
			}
			return sm[4] + string(rune(hexValue(sm[5]))) + sm[6]
		})
	}
	if strings.HasPrefix(strings.TrimSpace(s), "/") {
		s = slashCommandRE.ReplaceAllString(strings.TrimSpace(s), "$1")
	}
	if strings.Contains(s, "=") && strings.Contains(s, ">") {
		s = bareAttributesRE.ReplaceAllString(s, " ")
	}
	if strings.ContainsAny(s, "0123456789") {
		s = withoutSectionNumbers(s)
		s = gluedNoteRE.ReplaceAllString(s, "$1$2")
	}
	if strings.ContainsAny(s, ":.)/") && strings.ContainsAny(s, "QRA") {
		s = withoutQALabels(s)
	}
	if strings.HasPrefix(strings.TrimSpace(s), ">") && strings.HasSuffix(strings.TrimSpace(s), "?") && !strings.Contains(strings.TrimSpace(s), "\n") {
		return "" // a question quoted alone: the message answered, said back
	}
	if strings.Contains(s, "\n") && strings.Contains(s, ":") {
		s = fieldLineStartRE.ReplaceAllString(s, "")
	}
	s = pageChromeLineRE.ReplaceAllString(s, "") // a line, or a stream's sentence, of its own
	if strings.Contains(s, "[/quote]") || strings.Contains(s, "[/QUOTE]") {
		// Another's message quoted before the reply goes; a reply wrapped
		// whole in a quote is the reply (its tags are BBCode's).
		if rest := quotePairRE.ReplaceAllString(s, " "); strings.ContainsFunc(shortcodeRE.ReplaceAllString(rest, ""), unicode.IsLetter) {
			s = rest
		}
	}
	return s
}

// withoutSectionNumbers removes sections' numbers that count on in a
// sentence ("1.1 les automates, 1.2 les robots"): two or more under one
// number, rising.
func withoutSectionNumbers(s string) string {
	locs := sectionNumberRE.FindAllStringSubmatchIndex(s, -1)
	if len(locs) < 2 {
		return s
	}
	head := s[locs[0][4]:locs[0][5]]
	prev := -1
	for _, m := range locs {
		n, _ := strconv.Atoi(s[m[6]:m[7]])
		if s[m[4]:m[5]] != head || n <= prev {
			return s
		}
		prev = n
	}
	return sectionNumberRE.ReplaceAllString(s, "$1$4")
}

// withoutQALabels removes a FAQ's labels when both a question's and an
// answer's are there ("Q : Qui êtes-vous ? R : Je suis Nadine").
func withoutQALabels(s string) string {
	locs := qaLabelRE.FindAllStringSubmatchIndex(s, -1)
	q, a := false, false
	for _, m := range locs {
		label := strings.TrimSpace(s[m[3]:m[1]])
		q = q || strings.HasPrefix(label, "Q")
		a = a || strings.HasPrefix(label, "R") || strings.HasPrefix(label, "A") || strings.HasPrefix(label, "Q/")
	}
	if !q && !a {
		return s
	}
	if !q || !a {
		// Alone, as a stream's sentence: a label with a colon, or a
		// question's with its question.
		t := strings.TrimSpace(s)
		if m := qaSentenceRE.FindStringIndex(t); m != nil && (strings.Contains(t[:m[1]], ":") || strings.Contains(t[:m[1]], "/") || strings.HasSuffix(t, "?")) {
			return t[m[1]:]
		}
		return s
	}
	return qaLabelRE.ReplaceAllString(s, "$1")
}

// withoutNotesAndQuotes removes, from a text of several lines, a footnote's
// body (a line led by a mark the text glued to a word before: "Nadine(1)"
// then "(1) Créée en 2008") and the lines quoted from another's message
// before the reply ("> Où sont les toilettes ?"): a message asks, or is
// introduced ("Julie a écrit :"); a saying quoted before her words on it
// ("> Be kind to robots.\nThat is my motto!") is hers to say.
func withoutNotesAndQuotes(s string) string {
	lines := strings.Split(s, "\n")
	var out []string
	quoting := quotesMessage(lines)
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if quoting && strings.HasPrefix(t, ">") && i+1 < len(lines) {
			if rest := strings.Join(lines[i+1:], "\n"); strings.ContainsFunc(strings.TrimLeft(stripQuoted(rest), " \n"), unicode.IsLetter) {
				continue // the message answered, quoted before the answer
			}
		}
		if t != "" {
			quoting = false
		}
		if m := noteLineRE.FindStringSubmatch(line); m != nil && i > 0 {
			mark := m[1]
			before := strings.Join(lines[:i], "\n")
			if noteMarkAfterWord(before, strings.TrimSuffix(mark, ":")) {
				continue // the note's body, its mark glued to a word above
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// quotesMessage reports lines that open with a quoted message: quoted
// lines before the first other line that are more than a saying. A saying
// is one quoted line that states, with no label ("> Be kind to robots."
// before "That is my motto!"); a question, a line that introduces or
// labels ("> Julie a écrit :", "> Remarque : …"), a line that ends no
// sentence ("> Nadine – robot social") or several lines are another's.
func quotesMessage(lines []string) bool {
	quoted := 0
	for _, line := range lines {
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if !strings.HasPrefix(t, ">") {
			break
		}
		if quoted++; quoted > 1 {
			return true
		}
		t = strings.TrimRight(strings.TrimSpace(strings.TrimLeft(t, "> ")), "\"'»”’)*_ ")
		if r, _ := utf8.DecodeLastRuneInString(t); !strings.ContainsRune(".!…。！", r) || strings.ContainsAny(t, ":：") {
			return true
		}
	}
	return false
}

// stripQuoted returns text without its lines quoted with ">".
func stripQuoted(text string) string {
	var keep []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), ">") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// codePoint is the character an entity's number names, or a space for none
// (a control, a surrogate, past Unicode).
func codePoint(v int) string {
	if v < 32 || v > unicode.MaxRune || v >= 0xD800 && v <= 0xDFFF || v >= 0x7F && v < 0xA0 {
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
			with = codePoint(atoi(sub(1)))
		case sub(2) != "":
			with = html.UnescapeString("&" + sub(2) + ";")
		default:
			c := codePoint(atoi(sub(4)))
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

// noteMarkAfterWord reports a footnote's mark glued to a word in text
// ("Nadine(1),", "2008.*"), not a star of emphasis ("**Nadine**").
func noteMarkAfterWord(text, mark string) bool {
	for i := strings.Index(text, mark); i >= 0; {
		r, _ := utf8.DecodeLastRuneInString(text[:i])
		next, _ := utf8.DecodeRuneInString(text[i+len(mark):])
		if i > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.') && !unicode.IsLetter(next) && next != '*' {
			return true
		}
		j := strings.Index(text[i+len(mark):], mark)
		if j < 0 {
			return false
		}
		i += len(mark) + j
	}
	return false
}

// atoi is a decimal number's value, -1 for none.
func atoi(n string) int {
	v, err := strconv.Atoi(n)
	if err != nil {
		return -1
	}
	return v
}

// hexValue is a hexadecimal number's value, 0 for none.
func hexValue(h string) int {
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return 0
	}
	return int(v)
}
