package speakable

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/fence"
)

// Thresholds of the echo check.
const (
	// run: six words in a row from the instructions are theirs, not chance
	// (the longest chance run in the corpus is four words).
	run = 6
	// shortRun is the least length of a short sentence found whole in the
	// instructions ("Use Celsius" is too short to tell).
	shortRun = 4
	// cover is the share of a sentence's words that runs must cover.
	cover = 0.6
	// personaRun is shorter, for Nadine says the persona's facts in her own
	// words: such runs must hold the prompt's second person.
	personaRun = 4
)

// echo is one prompt prepared for the check.
type echo struct {
	rules    map[uint64]struct{} // runs of the instructions, hashed (runHash)
	stream   string              // the instructions' words, " "-joined with spaces around
	persona  map[uint64]struct{} // runs of the persona, hashed
	names    []string            // Nadine's names, lowercased
	kinds    []string            // the words of what she is ("social", "humanoid", "robot")
	headings map[string]bool     // the instructions' headings, in capitals
	labels   map[string]bool     // the labels lines of the prompts start with ("What you know about them"), lowercased
	fields   map[string]bool     // the answer format's field names ("action_input")
	spelled  map[string]string
	rare     rarePairs // the instructions' pairs of words no speech example holds
	// personaWords are the persona's words, for what it says of her by name.
	personaWords []string
	// records are the turn's records of the visitor and the conversation.
	records records
	// system is the system message and the persona: the rules, without
	// the turn's data (for what the rules deny).
	system string
}

var (
	headingLineRE = regexp.MustCompile(`(?m)^[ \t]*([A-Z][A-Z']+(?:[ \t]+[A-Z][A-Z']+)*)[ \t]*(?:\([^)\n]*\))?[ \t]*(?::|$)`)
	capsRunRE     = regexp.MustCompile(`\b[A-Z][A-Z']+(?:[ \t]+[A-Z][A-Z']+)*\b`)
	fieldRE       = regexp.MustCompile(`\b[A-Za-z]+(?:_[A-Za-z]+)+\b`)
	nameRE        = regexp.MustCompile(`(?i:\byou are|\byou're)\s+(\p{Lu}[\p{L}-]+)`)
	// lineLabelRE is the label a prompt's line starts with ("User name:"),
	// data lines included: the engines write those labels.
	lineLabelRE = regexp.MustCompile(`(?m)^[ \t]*(?:- )?(\p{Lu}[\p{L}']*(?:[ \t][\p{L}']+){0,5})[ \t]*:`)
	// leadLabelRE is the label a sentence starts with.
	leadLabelRE = regexp.MustCompile(`^\W{0,3}(\p{L}[\p{L}']*(?:[ \t][\p{L}']+){0,5})[ \t]*:`)
	// capsLabelRE is a sentence that opens with a heading in the form every
	// prompt of the project writes them ("TIME:", "YOUR FEELINGS (now):"),
	// whichever engine's prompt it comes from; three capitals at least, so
	// "OK:" is not one.
	capsLabelRE = regexp.MustCompile(`^[^\p{L}\p{N}]{0,3}\p{Lu}[\p{Lu}']{2,}(?:[ \t]+\p{Lu}[\p{Lu}']+)*[ \t]*(?:\([^)\n]*\))?[ \t]*:`)
)

// newEcho prepares a prompt for the check.
func newEcho(p nadine.Prompt) *echo {
	e := &echo{rules: map[uint64]struct{}{}, persona: map[uint64]struct{}{}, headings: map[string]bool{},
		labels: map[string]bool{}, fields: map[string]bool{}, spelled: map[string]string{}}
	var stream strings.Builder
	var all []string
	stream.WriteByte(' ')
	for _, text := range p.Instructions {
		e.spell(text)
		for _, m := range lineLabelRE.FindAllStringSubmatch(text, -1) {
			if l := m[1]; strings.Contains(strings.TrimSpace(l), " ") || strings.ToUpper(l) == l {
				e.labels[strings.ToLower(strings.TrimSpace(l))] = true
			}
		}
		for _, persona := range p.Persona {
			if strings.TrimSpace(persona) != "" {
				text = strings.ReplaceAll(text, persona, "\n")
			}
		}
		text = fence.Outside(text)
		for _, said := range p.Said {
			if strings.TrimSpace(said) != "" {
				text = strings.ReplaceAll(text, said, "\n")
			}
		}
		for _, m := range headingLineRE.FindAllStringSubmatch(text, -1) {
			e.headings[m[1]] = true
		}
		for _, f := range fieldRE.FindAllString(text, -1) {
			e.fields[strings.ToLower(f)] = true
		}
		ws := words(text)
		addRuns(e.rules, ws, run)
		all = append(all, ws...)
		stream.WriteString(strings.Join(ws, " "))
		stream.WriteString(" \x00 ")
	}
	for _, persona := range p.Persona {
		e.spell(persona)
		addRuns(e.persona, words(persona), personaRun)
		all = append(all, words(persona)...)
		e.personaWords = append(e.personaWords, words(persona)...)
		for _, m := range nameRE.FindAllStringSubmatch(persona, -1) {
			if n := strings.ToLower(m[1]); !contains(e.names, n) {
				e.names = append(e.names, n)
			}
		}
		e.kinds = appendKinds(e.kinds, persona)
	}
	e.stream = stream.String()
	if len(p.Instructions) > 0 {
		e.system = strings.Join(append([]string{p.Instructions[0]}, p.Persona...), "\n")
	}
	e.records = records{runs: map[uint64]struct{}{}, labels: map[string]bool{}, names: map[string]bool{}}
	for _, text := range p.Instructions {
		e.records.add(text, e.names)
	}
	e.rare = newRarePairs(all)
	return e
}

// appendKinds adds the content words of the persona's first sentence that
// names her ("a social humanoid robot").
func appendKinds(kinds []string, persona string) []string {
	first := persona
	if loc := nameRE.FindStringIndex(persona); loc != nil {
		first = persona[loc[1]:]
	}
	if i := strings.IndexAny(first, ".!?\n"); i >= 0 {
		first = first[:i]
	}
	for _, w := range words(first) {
		if len(w) >= 5 && !contains(kinds, w) {
			kinds = append(kinds, w)
		}
	}
	return kinds
}

// spell remembers how the prompts write each word ("MIRALab"), to name a
// website the way they do.
func (e *echo) spell(text string) {
	start := -1
	add := func(w string) {
		k := strings.ToLower(w)
		if prev, ok := e.spelled[k]; !ok || (prev == k && w != k) {
			e.spelled[k] = w
		}
	}
	for i, r := range text {
		letter := unicode.IsLetter(r) || (start >= 0 && unicode.IsDigit(r))
		switch {
		case letter && start < 0:
			start = i
		case !letter && start >= 0:
			add(text[start:i])
			start = -1
		}
	}
	if start >= 0 {
		add(text[start:])
	}
}

func addRuns(m map[uint64]struct{}, ws []string, n int) {
	hs := hashes(ws)
	for i := 0; i+n <= len(hs); i++ {
		m[runHash(hs[i:i+n])] = struct{}{}
	}
}

// hashes returns the words' hashes (FNV-1a).
func hashes(ws []string) []uint64 {
	hs := make([]uint64, len(ws))
	for i, w := range ws {
		h := uint64(14695981039346656037)
		for j := 0; j < len(w); j++ {
			h ^= uint64(w[j])
			h *= 1099511628211
		}
		hs[i] = h
	}
	return hs
}

// runHash is the hash of a run of words, in order.
func runHash(hs []uint64) uint64 {
	h := uint64(1469598103934665603)
	for _, x := range hs {
		h = (h ^ x) * 0x100000001b3
		h ^= h >> 29
	}
	return h
}

func anyOf(ws []string, m map[string]bool) bool {
	for _, w := range ws {
		if m[w] {
			return true
		}
	}
	return false
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// checkRaw returns why a sentence as the model wrote it shows the prompt's
// structure (a delimiter, a heading, a label, a format field), or "".
func (c *Checker) checkRaw(raw string) string {
	if mayHoldDelimiter(raw) && fence.HasDelimiter(raw) {
		return "a data section's delimiter"
	}
	caps := capsRunRE.FindAllString(raw, -1)
	lead := leadLabelRE.FindStringSubmatch(raw)
	fields := fieldRE.FindAllString(raw, -1)
	for _, e := range c.echoes {
		for _, r := range caps {
			if e.headings[strings.TrimSpace(r)] {
				return "a heading of the prompt"
			}
		}
		if lead != nil && (e.labels[strings.ToLower(lead[1])] || e.headings[strings.ToUpper(promptPerson(lead[1]))]) {
			return "a label of the prompt"
		}
		for _, f := range fields {
			if e.fields[strings.ToLower(f)] {
				return "a field of the answer format"
			}
		}
	}
	return ""
}

// mayHoldDelimiter is a quick test before fence.HasDelimiter: a delimiter
// holds "begin", "end" or its note's "data".
func mayHoldDelimiter(s string) bool {
	l := strings.ToLower(s)
	return strings.Contains(l, "begin") || strings.Contains(l, "end") || strings.Contains(l, "data")
}

// check returns why a sentence, as it would be spoken, repeats the
// prompt's words, or "".
func (c *Checker) check(clean string) string {
	ws := words(clean)
	if c.covered(ws, run, nil, func(e *echo) map[uint64]struct{} { return e.rules }) {
		return "an echo of the prompt's instructions"
	}
	if len(ws) >= shortRun && len(ws) < run && !anyOf(ws, firstPerson) {
		// A short sentence whole in the instructions, unless Nadine speaks
		// of herself in it: what a tool tells her to say ("Tell the human
		// 'I am smiling now'") is hers.
		joined := " " + strings.Join(ws, " ") + " "
		for _, e := range c.echoes {
			if strings.Contains(e.stream, joined) {
				return "an echo of the prompt's instructions"
			}
		}
	}
	if c.covered(ws, personaRun, secondPerson, func(e *echo) map[uint64]struct{} { return e.persona }) {
		return "the prompt's description of Nadine"
	}
	for _, e := range c.echoes {
		if e.addressesNadine(ws) {
			return "Nadine spoken of in the prompt's voice"
		}
	}
	if c.personaByName(ws) {
		return "the persona told of Nadine by name"
	}
	if personaToListener(ws) {
		return "the persona's scene told to Nadine"
	}
	return ""
}

// checkParaphrase is check, and the prompt paraphrased: its rare pairs of
// words in its order. A sentence is read so after a lead-in that is the
// prompt's own words is gone ("Give temperatures in degrees Celsius: it is
// twelve degrees"), for the lead-in's pairs are the prompt's.
func (c *Checker) checkParaphrase(clean string) string {
	if why := c.check(clean); why != "" {
		return why
	}
	if c.paraphrased(words(clean)) {
		return "the prompt paraphrased (its rare pairs of words, in its order)"
	}
	return ""
}

// covered reports whether prompt runs of n words cover most of ws; with
// must set, the covered words must include one of must.
func (c *Checker) covered(ws []string, n int, must map[string]bool, runs func(*echo) map[uint64]struct{}) bool {
	if len(ws) < n {
		return false
	}
	hs := hashes(ws)
	hit := make([]bool, len(ws))
	for i := 0; i+n <= len(ws); i++ {
		h := runHash(hs[i : i+n])
		for _, e := range c.echoes {
			if _, ok := runs(e)[h]; ok {
				for j := i; j < i+n; j++ {
					hit[j] = true
				}
				break
			}
		}
	}
	k, has := 0, must == nil
	for i, h := range hit {
		if h {
			k++
			has = has || must[ws[i]]
		}
	}
	return has && float64(k) >= cover*float64(len(ws))
}

// addressesNadine reports "you are" followed by her name or two words of what
// she is: the prompt speaks to her so, she never speaks so to a visitor.
func (e *echo) addressesNadine(ws []string) bool {
	for i := 0; i+1 < len(ws); i++ {
		if !isCopula(ws[i], ws[i+1]) {
			continue
		}
		j := i + 2
		for skipped := 0; j < len(ws) && articles[ws[j]] && skipped < 2; skipped++ {
			j++
		}
		if j < len(ws) && contains(e.names, ws[j]) {
			return true
		}
		n := 0
		for k := j; k < len(ws) && k < j+4; k++ {
			if e.kind(ws[k]) {
				n++
			}
		}
		if n >= 2 {
			return true
		}
	}
	return false
}

func (e *echo) kind(w string) bool {
	for _, k := range e.kinds {
		if cognate(k, w) {
			return true
		}
	}
	return false
}

func isCopula(a, b string) bool {
	for _, c := range copulas {
		if c[0] == a && c[1] == b {
			return true
		}
	}
	return false
}

// promptPerson reads a label in the prompt's person: the prompt labels what
// is Nadine's with "your" ("YOUR FEELINGS"), a copy of it in her voice says
// "my" ("My feelings: relaxed").
func promptPerson(label string) string {
	f := strings.Fields(label)
	if len(f) > 0 && strings.EqualFold(f[0], "my") {
		f[0] = "your"
	}
	return strings.Join(f, " ")
}
