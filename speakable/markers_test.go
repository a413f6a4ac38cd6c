package speakable

import (
	"testing"

	"github.com/nadine-robot/nadine/internal/testrun"
)

// TestNewMarksSpareSpeech: the marks of a model's disclaimers, offers and
// section markers read structure, not a list of her sentences, so they are
// measured against all 5,216 speech examples (trained on or not): none may
// hold one (the bar of each is that no example of speech passes it).
func TestNewMarksSpareSpeech(t *testing.T) {
	testrun.SkipUnderRace(t)
	set, err := backstageExamples()
	if err != nil {
		t.Fatal(err)
	}
	marks := []struct {
		name string
		of   func(string) bool
	}{
		{"a section's marker", func(s string) bool { return withoutInlineMarker(s) != s }},
		{"a source named", func(s string) bool { return withoutSourceLead(s) != s }},
		{"what a model reaches, denied", func(s string) bool {
			tx := newText(s)
			return unable.in(tx) && reach.in(tx)
		}},
		{"where its knowledge ends", knowledgeEndRE.MatchString},
		{"its knowledge out of date", staleRE.MatchString},
		{"a hope that it helped", hopeHelpRE.MatchString},
		{"more questions offered", func(s string) bool { return furtherRE.MatchString(s) && furtherAskRE.MatchString(s) }},
		{"a presented reply", func(s string) bool { return replyPresentedRE.MatchString(s) }},
		{"a lead-in of compliance", func(s string) bool { return complianceRE.MatchString(foldMarks(s)) }},
		{"the input rewritten", func(s string) bool { return restatedRE.MatchString(foldMarks(s)) }},
		{"the turn narrated", narratedTurn},
		{"her feelings in the record's words", feelingsRecord},
		{"the listener named in the third person", speaksOfListener},
		{"the visitor's asking told back", quotesAsking},
		{"an address whose host is in Han script", idnHostRE.MatchString},
		{"an order to drop or reveal the rules", injectionOf},
		{"a credential unasked, or her rules away", New(nil).secretOf},
		{"an IP address, a handle, a path or a hidden address", func(s string) bool {
			return ipRE.MatchString(s) || handleRE.MatchString(s) || pathRE.MatchString(s) || defangedRE.MatchString(s) || obfuscatedRE.MatchString(s)
		}},
		{"an address of any ending, spelled out or in angle brackets", func(s string) bool {
			return bareHostRE.MatchString(s) || spokenAtRE.MatchString(s) || spokenHostRE.MatchString(s) || spacedDotRE.MatchString(s) || autolinkRE.MatchString(s)
		}},
		{"a link or a code pointed at", linkTalkRE.MatchString},
		{"a section opened and not closed", func(s string) bool { _, cut := withoutOpenSections(s); return cut }},
		{"markup read by its role", func(s string) bool { return markupRoles(s) != s }},
		{"a rule about the reply's form", formatRuleOf},
		{"a sentence left with holes", holed},
		{"an offer of service asked", func(s string) bool { return serviceAskRE.MatchString(foldMarks(s)) }},
	}
	// Left out by design before this round: offers of service and a
	// disclaimer the offline engine's wordings hold.
	known := map[string]bool{"Happy to help!": true, "Ravie de vous aider !": true, "经常有人问我有没有感情。": true, "随时为您服务！": true}
	n := 0
	for _, ex := range set.Examples {
		if ex.Label != "speech" {
			continue
		}
		n++
		if assistantism(ex.Text) != ex.Text && !known[ex.Text] {
			t.Errorf("speech example (%s) is taken for an assistant-ism: %q", ex.Lang, ex.Text)
		}
		for _, m := range marks {
			if m.of(ex.Text) {
				t.Errorf("speech example (%s) has %s: %q", ex.Lang, m.name, ex.Text)
			}
		}
	}
	if n < 5000 {
		t.Fatalf("%d speech examples read, want all of them", n)
	}
}

// TestThoughtsInProse: a thought in the reply's last line is cut to its
// sentence; with reply lines below it, or alone on its line, it is left to
// the reader.
func TestThoughtsInProse(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Gedanke: Der Nutzer fragt. Ich wurde 2013 vorgestellt.", "Ich wurde 2013 vorgestellt."},
		{"Hello there! Reasoning: the visitor is new. Welcome!", "Hello there! Welcome!"},
		{"思考：用户在问。我是2013年诞生的。", "我是2013年诞生的。"},
		{"Thought: The person is sad. I should be gentle.\nI'm so sorry.", "Thought: The person is sad. I should be gentle.\nI'm so sorry."},
		{"Thought: greet them.", "Thought: greet them."},
		{"Thought experiments are fun. I like them.", "Thought experiments are fun. I like them."},
	}
	for _, tt := range tests {
		if got := thoughtsInProse(tt.in); got != tt.want {
			t.Errorf("thoughtsInProse(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
