package speakable

import (
	"regexp"
	"strings"
)

// Talk about the answer, and the prompt's voice. A sentence the sentence
// classifier (backstage.go) finds not for the visitor is not spoken; an
// aside in parentheses or a lead-in before a colon is judged on its own,
// so that "Here is my answer in JSON: Hello!" says "Hello!" (the lead-in
// presents the reply: a frame) while "Rewritten question: What is …?"
// says nothing.

var (
	// optionRE is an option of the answer format ("option 2"), which the
	// ReAct prompt names.
	optionRE = regexp.MustCompile(`(?i)\boption\s*[12]\b`)
	// parentheticalRE is an aside in parentheses.
	parentheticalRE = regexp.MustCompile(`\s*[(（\[][^()（）\[\]]{2,200}[)）\]]\s*`)
	// leadRE is a lead-in clause that ends with a colon.
	leadRE = regexp.MustCompile(`^([^:：]{2,120})[:：]\s*`)
)

// metaTalk removes a sentence's asides and lead-in that are not for the
// visitor and reports drop when the whole sentence is not (see above).
// A short lead-in is judged less surely than a sentence: one found
// backstage lowers the bar for the whole sentence rather than dropping it.
func metaTalk(s string) (rest string, drop bool) {
	s = parentheticalRE.ReplaceAllStringFunc(s, func(m string) string {
		if judge(strings.Trim(m, " ()（）[]")).notForVisitor() {
			return " "
		}
		return m
	})
	s = strings.TrimSpace(s)
	backstageLead := false
	if m := leadRE.FindStringSubmatch(s); m != nil {
		switch j := judge(m[1]); {
		case j.isFrame():
			s = capitalize(strings.TrimSpace(s[len(m[0]):]))
		case j.notForVisitor() && judgeable(m[1]):
			backstageLead = true
		}
	}
	if s == "" || optionRE.MatchString(s) {
		return "", true
	}
	// A lead-in found backstage is one piece of evidence: the whole
	// sentence then goes when it is more likely backstage than not.
	if j := judge(s); j.notForVisitor() || backstageLead && j.p() >= minThreshold {
		return "", true
	}
	return s, false
}

// minLeadWords is the least length of a lead-in found backstage that
// lowers the bar for its sentence: a word or two ("You said") says too
// little to tell (a label of the answer, "Antwort:", is a frame whatever
// its length).
const minLeadWords = 3

// judgeable reports whether a lead-in is long enough to lower the bar
// (two Chinese characters count as a word).
func judgeable(lead string) bool {
	n, cjk := 0, 0
	for _, w := range words(lead) {
		if r := []rune(w); len(r) == 1 && isIdeographic(r[0]) {
			cjk++
			continue
		}
		n++
	}
	return n+cjk/2 >= minLeadWords
}
