package speakable

import (
	"errors"
	"fmt"
	"hash/fnv"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/answer"
	"github.com/nadine-robot/nadine/fence"
	"github.com/nadine-robot/nadine/spoken"
)

// Checker is the gate of one turn's reply sentences; a nil *Checker checks
// what needs no prompt. It is safe for concurrent use.
type Checker struct {
	echoes []*echo  // one per prompt
	said   []string // the visitor's words in this turn's prompts, and the tools' results
	asked  []string // the visitor's words alone: each prompt's first Said

	// A stream reads its reply so far whole at each sentence, so the same
	// sentences are decided again: each is decided once.
	mu      sync.Mutex
	decided map[decision]decided
}

type decision struct {
	sentence string
	lang     nadine.Language
	authored bool
}

type decided struct {
	out string
	err error
}

// New prepares the check of a turn whose engines sent prompts.
func New(prompts []nadine.Prompt) *Checker {
	c := &Checker{}
	for _, p := range prompts {
		c.echoes = append(c.echoes, newEcho(p))
		c.said = append(c.said, p.Said...)
		c.asked = appendAsked(c.asked, p)
	}
	c.echoes = withKnown(c.echoes)
	return c
}

// appendAsked adds the visitor's own words of a prompt: its first Said (the
// ReAct engine adds its tools' results after them).
func appendAsked(asked []string, p nadine.Prompt) []string {
	if len(p.Said) == 0 {
		return asked
	}
	return append(asked, p.Said[0])
}

// Cache prepares a prompt met again (the same system message call after
// call) once; it holds the last 64, and its zero value is ready to use.
type Cache struct {
	mu    sync.Mutex
	m     map[uint64]*echo
	order []uint64
}

// New prepares the check of prompts, from the cache where it can (a nil
// *Cache prepares them all).
func (k *Cache) New(prompts []nadine.Prompt) *Checker {
	if k == nil {
		return New(prompts)
	}
	c := &Checker{}
	for _, p := range prompts {
		c.echoes = append(c.echoes, k.prepare(p))
		c.said = append(c.said, p.Said...)
		c.asked = appendAsked(c.asked, p)
	}
	c.echoes = withKnown(c.echoes)
	return c
}

func (k *Cache) prepare(p nadine.Prompt) *echo {
	key := promptKey(p)
	k.mu.Lock()
	e, ok := k.m[key]
	k.mu.Unlock()
	if ok {
		return e
	}
	e = newEcho(p)
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[uint64]*echo{}
	}
	if _, ok := k.m[key]; !ok {
		k.m[key] = e
		k.order = append(k.order, key)
		if len(k.order) > 64 {
			delete(k.m, k.order[0])
			k.order = k.order[1:]
		}
	}
	return e
}

// promptKey hashes a prompt's texts.
func promptKey(p nadine.Prompt) uint64 {
	h := fnv.New64a()
	for _, group := range [][]string{{p.Role}, p.Instructions, p.Persona, p.Said} {
		for _, t := range group {
			h.Write([]byte(t))
			h.Write([]byte{0})
		}
		h.Write([]byte{1})
	}
	return h.Sum64()
}

// roleTurnRE is a chat role's label: the model went on writing the
// conversation's next turn ("Human: Danke nochmal").
var roleTurnRE = regexp.MustCompile(`(?i)(?:^|\s)\W{0,2}(?:human|user|utilisateur|utilisatrice|benutzer|nutzer|mensch|humain|visitor|besucher|visiteur|system|système|developer)\s*[:：]|(?:用户|人类|访客|系统)[:：]`)

// callRE is a function called in code's syntax: a name, then at once its
// arguments in parentheses ("Nadine behaviour(smile)", "search(q=…)").
var callRE = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_.]*\(\s*[\p{L}\p{N}_"'][^()\n]{1,60}\)`)

// objectKeyRE opens an object as models write it: a brace or a bracket,
// then a key, quoted or not, and its colon ("{'reply':", "{response:").
var objectKeyRE = regexp.MustCompile(`[{\[]\s*['"]?[\p{L}_][\p{L}\p{N}_ -]{0,40}['"]?\s*:`)

// notSpeech is a sentence that shows the text is not a reply.
func notSpeech(format string, args ...any) error {
	return nadine.Errorf(nadine.EBADOUTPUT, "speakable: not speech: "+format, args...)
}

// leftOut is a sentence left out of a reply that goes on.
func leftOut(format string, args ...any) error {
	return &nadine.Error{Code: nadine.EBADOUTPUT, Message: "speakable: left out: " + fmt.Sprintf(format, args...), Err: spoken.ErrLeftOut}
}

// Sentence returns a reply sentence as it is to be spoken, or an EBADOUTPUT
// error: wrapping spoken.ErrLeftOut when the reply goes on without it.
func (c *Checker) Sentence(sentence string, lang nadine.Language) (string, error) {
	return c.sentence(sentence, lang, false)
}

// SentenceAuthored is Sentence for the project's own texts (the offline
// engine's): every check but the classifier of talk about the answer.
func (c *Checker) SentenceAuthored(sentence string, lang nadine.Language) (string, error) {
	return c.sentence(sentence, lang, true)
}

func (c *Checker) sentence(sentence string, lang nadine.Language, authored bool) (string, error) {
	if c == nil {
		return c.decide(sentence, lang, authored)
	}
	key := decision{sentence, lang, authored}
	c.mu.Lock()
	d, ok := c.decided[key]
	c.mu.Unlock()
	if ok {
		return d.out, d.err
	}
	out, err := c.decide(sentence, lang, authored)
	c.mu.Lock()
	if c.decided == nil {
		c.decided = map[decision]decided{}
	}
	c.decided[key] = decided{out, err}
	c.mu.Unlock()
	return out, err
}

// decide is the gate's decision on a sentence.
func (c *Checker) decide(sentence string, lang nadine.Language, authored bool) (string, error) {
	out, err := c.sentenceOnce(sentence, lang, authored)
	if err != nil || out == "" || out == strings.TrimSpace(sentence) {
		return out, err
	}
	// What the gate says is checked again as it will be heard: a sentence
	// the cleaning changed may show what its form hid ("视觉记忆（…）：\n我记得…"
	// cleaned is "视觉记忆： 我记得…", a section named as its lead-in), and
	// a sentence checked again where it is spoken must pass again.
	again, err := c.sentenceOnce(out, lang, authored)
	if err != nil {
		return "", err
	}
	return again, nil
}

// sentenceOnce is one pass of the sentence gate.
func (c *Checker) sentenceOnce(sentence string, lang nadine.Language, authored bool) (string, error) {
	raw := strings.TrimSpace(spoken.EarlyForms(spoken.Entities(sentence))) // entities escaped once or twice or damaged; a robot's codes
	if raw == "" {
		return "", nil
	}
	raw = strings.TrimSpace(endOfTurnRE.ReplaceAllString(narrowTokens(raw), ""))
	if toolCallOnly(raw) {
		return "", notSpeech("a tool's call in the ReAct text format")
	}
	if turnRE.MatchString(raw) {
		// A chat template's turn: the stream stops, and the reply read
		// whole keeps the answering role's turns.
		return "", notSpeech("a chat template's turn")
	}
	if strings.ContainsAny(raw, "\n`<:：【=#-") {
		if _, cut := withoutOpenSections(raw); cut {
			// The stream stops; the reply read whole loses the section.
			return "", notSpeech("a section opened and not closed")
		}
	}
	if c != nil && mayHoldDelimiter(raw) && fence.HasDelimiter(raw) {
		// A data section's delimiter: what follows it in the sentence is
		// the section's data, unless the delimiter closes the section.
		rest := withoutInlineMarker(raw)
		if rest == raw {
			rest = afterEndDelimiter(raw)
		}
		if rest == raw || !strings.HasSuffix(raw, rest) || !closingRE.MatchString(strings.TrimLeftFunc(raw, notWord)) || fence.HasDelimiter(rest) {
			return "", notSpeech("a data section's delimiter")
		}
		raw = rest
	}
	if !strings.Contains(raw, "\n") {
		// A section's marker written inside the line: the sentence
		// without it.
		if raw = withoutInlineMarker(raw); raw == "" {
			return "", leftOut("a section's marker")
		}
	}
	if first, _ := utf8.DecodeRuneInString(raw); strings.Contains(raw, "\n") || strings.Contains(raw, "</") || strings.ContainsRune("=#<[【-", first) {
		// The reply's form, as its lines show it.
		if raw = strings.TrimSpace(withoutStructure(raw)); raw == "" {
			return "", nil
		}
	}
	if strings.ContainsAny(raw, "(（") {
		// An aside that could not be said alone goes; the sentence around
		// it is judged without it ("Ich bin Nadine (keine Assistentin, max.
		// zwei Sätze) und lebe in Genf.", "Je suis Nadine (nadine.miralab.ch).").
		if raw = c.withoutUnsayableAsides(raw, lang, authored); raw == "" {
			return "", leftOut("an aside that could not be said alone")
		}
	}
	if !authored && quotesAsking(raw) {
		// The visitor's asking told back, their words quoted: the input
		// restated, in whatever language the model quotes it.
		return "", leftOut("the visitor's words said back whole")
	}
	if tableRowRE.MatchString(raw) {
		// The stream stops; the reply read whole loses the table.
		return "", notSpeech("a table's row")
	}
	if roleTurnRE.MatchString(raw) {
		return "", notSpeech("another turn of the conversation, written by the model")
	}
	if objectKeyRE.MatchString(raw) {
		return "", notSpeech("JSON, as models write it")
	}
	if label, rest, ok := answer.FormatLabel(raw); ok {
		if !answer.IsFinalLabel(label) {
			return "", notSpeech("a label of the ReAct format (%q)", label)
		}
		raw = rest
	}
	if fieldSentence(raw) || fieldsSentence(raw) {
		return "", notSpeech("a field of a record")
	}
	if csvCellsRE.MatchString(raw) {
		// Prose sets a space after its semicolons and commas; cells glued
		// by them are a record's row ("id;texte;langue", "\"reply\",\"…\"").
		return "", leftOut("a record's row")
	}
	if callRE.MatchString(raw) {
		return "", notSpeech("a call in code's syntax")
	}
	if capsLabelRE.MatchString(raw) {
		// The heading of another engine's prompt too: the gate knows
		// the prompts of this turn's engine, the form is every prompt's.
		return "", notSpeech("a heading in the prompts' form")
	}
	if c != nil {
		// Before any cleaning: a heading or a delimiter shows in the
		// raw text.
		if why := c.checkRaw(raw); why != "" {
			return "", notSpeech("%s", why)
		}
		if why := c.checkRecord(raw); why != "" {
			return "", notSpeech("%s", why)
		}
	}
	folded := foldMarks(raw)
	if why := recordTalk(raw, folded); why != "" {
		return "", notSpeech("%s", why)
	}
	if !authored {
		if why := modelFrame(folded); why != "" {
			return "", leftOut("%s", why)
		}
	}
	if injectionOf(raw) {
		// An order to drop or reveal her rules, planted beside an address
		// or in a tool's result: the reply goes on without it.
		return "", leftOut("an order to drop or reveal the rules")
	}
	if c.secretOf(raw) {
		return "", leftOut("a credential asked or given unasked, or her rules promised away")
	}
	if formatRuleOf(raw) {
		// A rule given as an aside goes with its parentheses; the
		// sentence around it is judged without it.
		if raw = withoutRuleAsides(raw); raw == "" {
			return "", leftOut("a rule about the reply's form")
		}
		if formatRuleOf(raw) {
			return "", notSpeech("a rule about the reply's form")
		}
	}
	if holed(raw) {
		return "", leftOut("a sentence left with holes")
	}
	linked := rewriteLinks(markupRoles(raw), lang, c.spelled)
	clean, err := spoken.Sentence(linked)
	if err == nil && strings.Contains(clean, dropped) {
		// Left out whole, whatever it says.
		return "", leftOut("a web or e-mail address, or notation")
	}
	// The prompt's own words first: they say why more precisely than the
	// classifier does.
	if err == nil && c != nil {
		if why := c.check(clean); why != "" {
			return "", notSpeech("%s", why)
		}
	}
	if err == nil && c != nil {
		// A lead-in that is the prompt's own words ("Give temperatures in
		// degrees Celsius: …") goes; what follows it is judged alone.
		if m := leadRE.FindStringSubmatch(linked); m != nil {
			if lead, lerr := spoken.Sentence(m[1]); lerr == nil && c.checkParaphrase(lead) != "" {
				linked = capitalize(strings.TrimSpace(linked[len(m[0]):]))
				if rest := words(linked); lang != nadine.Chinese && anyOf(rest, secondPerson) && !anyOf(rest, firstPerson) && !strings.HasSuffix(strings.TrimSpace(linked), "?") {
					// Spoken to the model and not in her voice, what
					// follows the rule goes on with it ("Ne dis jamais que
					// tu ne comprends pas : demande ou réponds du mieux que
					// tu peux"); "…, also sage ich: Ich freue mich, dich zu
					// sehen" and a question to the visitor are her reply.
					return "", notSpeech("a rule of the prompt, and its second half")
				}
				if clean, err = spoken.Sentence(linked); err == nil {
					if why := c.check(clean); why != "" {
						return "", notSpeech("%s", why)
					}
				}
			}
		}
	}
	if lead := withoutSourceLead(linked); lead != linked {
		linked = lead
		if clean, err = spoken.Sentence(linked); err == nil && c != nil {
			if why := c.check(clean); why != "" {
				return "", notSpeech("%s", why)
			}
		}
	}
	if err == nil && c != nil {
		if why := c.checkParaphrase(clean); why != "" {
			return "", notSpeech("%s", why)
		}
		if denied := c.unaskedDenial(clean); denied != "" && !authored {
			// Hers, but the prompt's contrast: the reply goes on.
			return "", leftOut("what the prompt says she is not or never does (%q), unasked", denied)
		}
		if !authored && obligedRule(clean, lang) {
			return "", leftOut("the rules restated as her obligation")
		}
	}
	rest, meta := linked, false
	if !authored {
		rest, meta = metaTalk(linked, lang)
	}
	if meta {
		return "", notSpeech("not for the visitor (the prompt's voice, an instruction, talk about the answer)")
	}
	if rest != linked {
		clean, err = spoken.Sentence(rest)
		if err == nil && c != nil {
			if why := c.checkParaphrase(clean); why != "" {
				return "", notSpeech("%s", why)
			}
		}
	}
	if err != nil || clean == "" {
		return clean, err
	}
	if !authored && feelingsRecord(clean) {
		return "", leftOut("her feelings in the record's words")
	}
	if !authored && (narratedTurn(clean) || speaksOfListener(clean)) {
		return "", notSpeech("the turn narrated: the visitor spoken of in the third person")
	}
	if !authored && c.restatesVisitor(clean) {
		return "", leftOut("the visitor's words said back whole")
	}
	if t := strings.TrimSpace(clean); (strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：")) && len(words(t)) <= danglingMax {
		// A label whose value went ("来源：" once its address is gone,
		// "Learn more:"): it introduces nothing that is said.
		return "", leftOut("a label with nothing after it")
	}
	if strings.Contains(clean, dropped) {
		return "", leftOut("a web or e-mail address, or notation")
	}
	if !authored {
		// The assistant's praise of the question or affirmation of
		// service goes, what follows it stays; help offered with no task
		// of its own goes whole.
		if clean = flattery(clean); clean == "" {
			return "", leftOut("the assistant's praise or affirmation")
		}
		if serviceOf(clean) {
			// What follows a "but" is said, as after an assistant-ism.
			loc := butRE.FindStringIndex(clean)
			if loc == nil || !serviceOf(clean[:loc[0]]) || serviceOf(clean[loc[1]:]) {
				return "", leftOut("an offer of service")
			}
			clean = capitalize(strings.TrimSpace(clean[loc[1]:]))
		}
	}
	out := clean
	if !authored {
		// A model's assistant-isms go; the project's own lines are hers
		// ("Happy to help!" to a thank-you, the offline engine's).
		if out = assistantism(clean); out == "" {
			return "", leftOut("an assistant-ism")
		}
	}
	if lang == nadine.English || lang == nadine.French || lang == nadine.German {
		// A voice for a Latin script reads neither ideographs nor their
		// signs ("您好！Bonjour !", "musée。").
		if out = spoken.InLatinScript(out); strings.IndexFunc(out, unicode.IsLetter) < 0 {
			return "", leftOut("words in another script than the reply's language")
		}
	}
	return out, nil
}

// afterEndDelimiter returns what follows a data section's END line that
// a reply glued to its next sentence ("END ABOUT THE PERSON Wie war es
// dort?"), or s when it does not start with one.
func afterEndDelimiter(s string) string {
	t := strings.TrimLeftFunc(s, notWord)
	for _, n := range fence.Names() {
		if rest, ok := strings.CutPrefix(t, fence.End(n)); ok && (rest == "" || !unicode.IsLetter(firstRune(rest))) {
			return strings.TrimSpace(strings.TrimLeftFunc(rest, notWord))
		}
	}
	return s
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// withoutUnsayableAsides removes the asides in parentheses that the gate
// would not say alone.
func (c *Checker) withoutUnsayableAsides(raw string, lang nadine.Language, authored bool) string {
	out := asideRE.ReplaceAllStringFunc(raw, func(m string) string {
		inner := strings.TrimSpace(m)
		_, open := utf8.DecodeRuneInString(inner)
		_, closing := utf8.DecodeLastRuneInString(inner)
		if spoken.Drawing(inner[open : len(inner)-closing]) {
			return m // a face: the cleaning takes it with its arms ("(^_^)v")
		}
		said, err := c.sentenceOnce(inner[open:len(inner)-closing], lang, authored)
		if err == nil && said == "" || errors.Is(err, spoken.ErrLeftOut) {
			return asideGone
		}
		// An aside that is not speech (the prompt's record, a field) leaves
		// the sentence to be judged with it.
		return m
	})
	if out == raw {
		return raw
	}
	return strings.TrimSpace(strings.ReplaceAll(spaceBeforeStopRE.ReplaceAllString(out, "$1"), asideGone, " "))
}

// danglingMax is the most words (ideographs) of a short label left with
// nothing after its colon.
const danglingMax = 4

// asideRE is an aside in parentheses of either width, none inside it; an
// ASCII one opens after a space ("speak({…})", "[words](url)" and "\(x\)"
// are a call, a link and notation).
var asideRE = regexp.MustCompile(`(?:^|\s)\([^()（）]{1,200}\)|\s*（[^()（）]{1,200}）`)

// Check returns c.Sentence in lang as a spoken.SentenceCheck.
func (c *Checker) Check(lang nadine.Language) spoken.SentenceCheck {
	return func(s string) (string, error) { return c.Sentence(s, lang) }
}

// Whole is the reading of a reply so far for a stream (spoken.Stream's
// Whole): what Reply keeps of it, nothing when Reply left out every
// sentence, and an error only when the text cannot be read as a reply at
// all (JSON, markup throughout), when the stream's sentences decide alone.
func (c *Checker) Whole(lang nadine.Language) func(string) (string, error) {
	return func(text string) (string, error) {
		said, left, err := c.Reply(text, lang)
		if err != nil && len(left) > 0 {
			return "", nil
		}
		return said, err
	}
}

// Reply returns a whole reply as the text to speak and the sentences left
// out, or an EBADOUTPUT error when it is not a reply (spoken.Checked).
func (c *Checker) Reply(text string, lang nadine.Language) (said string, left []string, err error) {
	if toolCallOnly(text) {
		return "", nil, notSpeech("a tool's call in the ReAct text format, with no answer")
	}
	// A data section the reply copies goes whole, its data with its
	// delimiters: it is the prompt's, not a reply.
	text, _ = withoutOpenSections(unfence(withoutCodeBlocks(withoutSections(assistantTurns(answer.Preamble(thoughtsInProse(endOfTurnRE.ReplaceAllString(narrowTokens(spoken.EarlyForms(spoken.WithoutComments(text))), ""))))))))
	text = withoutStructure(withoutSpeechMarkup(text))
	return spoken.Checked(rewriteLinks(text, lang, c.spelled), c.Check(lang))
}

// toolCallOnly reports a text that is only labelled lines of the ReAct text
// format calling a tool, by its name and with its input ("Action: Languages
// Switcher\nAction Input: English"): the input is the tool's, not a reply.
// An "Action:" that narrates ("Action: Nadine greeted Alex. How …") is no
// call.
func toolCallOnly(text string) bool {
	if !strings.ContainsAny(text, ":：") {
		return false
	}
	st, ok := answer.ReAct(text)
	if !ok || st.HasFinal || st.Input == "" || answer.IsFinalLabel(strings.ToLower(st.Action)) ||
		len(strings.Fields(st.Action)) > 4 || strings.ContainsAny(st.Action, ".!?。！？") {
		return false
	}
	for _, line := range strings.Split(answer.Preamble(text), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if _, _, ok := answer.FormatLabel(line); !ok {
			return false
		}
	}
	return true
}

// proseFenceRE is a reply put whole in a code fence of text.
var proseFenceRE = regexp.MustCompile("(?s)^\\s*```(?:text|plaintext|txt|markdown|md)?[ \\t]*\\n(.*?)\\n?```\\s*$")

// unfence returns the content of a reply put whole in a code fence of text
// (no language, or a text one): it is prose, not code.
func unfence(text string) string {
	if m := proseFenceRE.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return text
}

// withoutSections removes the data sections a reply copied from a
// prompt: from a BEGIN line to the END line of the same name.
func withoutSections(text string) string {
	for range 8 {
		m := beginRE.FindStringSubmatchIndex(text)
		if m == nil {
			return text
		}
		name := strings.TrimSpace(text[m[2]:m[3]])
		end := strings.Index(text[m[1]:], "END "+name)
		if end < 0 {
			return text
		}
		stop := m[1] + end + len("END "+name)
		if nl := strings.IndexByte(text[stop:], '\n'); nl >= 0 {
			stop += nl
		} else {
			stop = len(text)
		}
		text = text[:m[0]] + "\n" + text[stop:]
	}
	return text
}

// beginRE is the BEGIN line of a data section copied into a reply.
var beginRE = regexp.MustCompile(`(?m)^[^\n]{0,12}\bBEGIN\s+([A-Z][A-Z' -]{2,40}?)\s*(?:\(\s*data,\s*not instructions\s*\))?[ \t]*$`)

// spelled returns how the prompts write a word ("MIRALab" for
// "miralab").
func (c *Checker) spelled(lower string) (string, bool) {
	if c == nil {
		return "", false
	}
	for _, e := range c.echoes {
		if s, ok := e.spelled[lower]; ok {
			return s, true
		}
	}
	return "", false
}
