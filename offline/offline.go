package offline

import (
	"context"
	"hash/fnv"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
	"github.com/nadine-robot/nadine/spoken"
)

// Options configures an Engine. The zero value is a working engine that
// keeps names for the session only and knows what its persona says.
type Options struct {
	// Store persists the names people give (nil: for the session only). A
	// nadine.ProfileUpdater's transaction keeps another robot's update to the profile.
	Store nadine.ProfileStore
	// Persona holds who Nadine is (default nadine.DefaultPersona()).
	Persona nadine.Persona
	// Knowledge and Embedder, when both are set, let Nadine answer from the
	// knowledge base.
	Knowledge nadine.KnowledgeStore
	Embedder  nadine.Embedder
	// Detector tells the language of the knowledge Nadine quotes, and of an
	// utterance no phrase of hers recognizes. Nil: the session language.
	Detector nadine.LanguageDetector
	// Now tells the time (default time.Now).
	Now func() time.Time
	// NewUserID makes the id of a person who gives a name Nadine has not
	// heard before (default nadine.NewUserID: "alex-3f9a1c").
	NewUserID func(name string) string
	// Location is where the robot is, for the time and the date (default
	// time.Local).
	Location *time.Location
	// Songs returns the song library's songs in a language. Nil means no
	// song library at all; a library without songs says so truly.
	Songs func(lang nadine.Language) []nadine.Song
	// Logger receives debug lines and store failures (default: discard).
	Logger *slog.Logger
}

// Engine is the rule-based engine. Its configuration never changes after New, so
// one serves every robot of a process; safe for concurrent use.
type Engine struct {
	store        nadine.ProfileStore
	persona      nadine.Persona
	kb           nadine.KnowledgeStore
	emb          nadine.Embedder
	detector     nadine.LanguageDetector
	now          func() time.Time
	newUserID    func(string) string
	loc          *time.Location
	songs        func(nadine.Language) []nadine.Song
	log          *slog.Logger
	model        *intents.Model // the classifier, trained on the examples
	threshold    float64        // see the constant of understand.go
	replies      map[nadine.Language]map[string][]string
	calendars    map[nadine.Language]wordTable
	langNames    map[nadine.Language]map[nadine.Language]string
	ordinals     [31]string
	sections     map[string]string          // built-in knowledge section title → fact
	nameQuestion map[nadine.Language]string // the sentence that asks for a name
	howQuestions []string                   // the sentences that ask "how are you?"
	empathy      map[string]bool            // replies after which Nadine listens
	greetLines   map[string]bool            // her greetings to a stranger: an introduction may follow
	topics       *topicIndex                // the knowledge facts' passages, per language
	recent       *recentReplies
}

var _ nadine.Engine = (*Engine)(nil)

// New returns an engine. The first of a process trains the classifier on the
// embedded examples, and panics if they do not parse (their tests rule it out).
func New(opts Options) *Engine {
	model, err := trainedModel()
	if err != nil {
		panic(err)
	}
	e := &Engine{
		model:        model,
		threshold:    threshold,
		store:        opts.Store,
		persona:      opts.Persona,
		kb:           opts.Knowledge,
		emb:          opts.Embedder,
		detector:     opts.Detector,
		now:          opts.Now,
		newUserID:    opts.NewUserID,
		loc:          opts.Location,
		songs:        opts.Songs,
		log:          opts.Logger,
		replies:      replyTable(),
		calendars:    calendars(),
		langNames:    languageNames(),
		ordinals:     germanOrdinals(),
		sections:     builtinSections(),
		nameQuestion: make(map[nadine.Language]string),
		empathy:      make(map[string]bool),
		greetLines:   make(map[string]bool),
	}
	if e.persona.Name == "" {
		e.persona = nadine.DefaultPersona()
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.newUserID == nil {
		e.newUserID = nadine.NewUserID
	}
	if e.loc == nil {
		e.loc = time.Local
	}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	e.recent = newRecentReplies(e.now)
	e.topics = e.newTopicIndex()
	for lang, table := range e.replies {
		if lines := table[tRememberUnknown]; len(lines) > 0 {
			if s := spoken.SplitSentences(lines[0]); len(s) > 0 {
				e.nameQuestion[lang] = s[len(s)-1]
			}
		}
		for _, key := range []string{tHow, tHowName, tHowUpset, tHowCaring} {
			for _, l := range table[key] {
				if s := spoken.SplitSentences(l); len(s) > 0 && !strings.Contains(s[len(s)-1], "{") {
					e.howQuestions = append(e.howQuestions, s[len(s)-1])
				}
			}
		}
		for _, l := range table[tGreet] {
			e.greetLines[l] = true
		}
		for _, key := range []string{tFeelSad, tNewsBad, tStress, tAngryUser, tSick, tListen} {
			for _, l := range table[key] {
				e.empathy[l] = true
			}
		}
	}
	return e
}

// Name returns "offline".
func (e *Engine) Name() string { return "offline" }

// Authored reports that the engine speaks only the project's own texts.
func (e *Engine) Authored() bool { return true }

// Respond never fails: an unreachable store or knowledge base only costs what
// it would have added. It does not emit EventDone.
func (e *Engine) Respond(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
	start := time.Now()
	ctx = nadine.OpenStep(ctx) // its searches hang from the step that says what it answered
	step := nadine.StepOf(ctx)
	t := &turn{
		e:        e,
		ctx:      ctx,
		req:      req,
		session:  req.Turn.Language.Or(nadine.DefaultLanguage),
		userID:   req.Turn.UserID,
		userName: strings.TrimSpace(req.Turn.UserName),
	}
	if t.userID == "" {
		t.userID = nadine.UnknownUser
	}
	t.hints = t.readHistory()
	c := e.classify(req.Turn.Text, t.session, t.hints)
	reply := t.answer(c)
	detail := "language=" + string(reply.Language)
	if t.detail != "" {
		detail += " " + t.detail
	}
	step.Name, step.Start, step.Duration, step.Detail = "offline:"+t.outcome.traceName(), start, time.Since(start), detail
	nadine.TraceFrom(ctx).AddStep(step)
	e.log.Debug("offline reply", "intent", t.outcome.traceName(), "language", reply.Language, "user", nadine.PersonID(reply.UserID))
	return reply, nil
}

// turn is the state of one Respond call.
type turn struct {
	e        *Engine
	ctx      context.Context
	req      nadine.Request
	session  nadine.Language
	userID   string
	userName string

	hints   hints           // what the conversation so far says about the turn
	lang    nadine.Language // the language of the reply
	said    []uint64        // Nadine's replies in this conversation, newest first
	outcome classified      // what the turn was answered as
	detail  string          // for the trace step: the fact, the knowledge source
	songs   map[nadine.Language][]nadine.Song

	nameLoaded    bool
	profile       nadine.Profile
	profileLoaded bool
	hasProfile    bool
	storeFailed   bool // a store call of this turn failed

	before   []nadine.Event // emitted before the speech
	after    []nadine.Event // emitted after the speech
	gestures []nadine.Gesture
}

// worryWindow is how many of her last replies an empathy line colours:
// asked how she is, she asks back how the person is holding up.
const worryWindow = 3

// readHistory reads the window: her replies (to vary her wording), what she last
// asked, a worry met lately, and what the person said before (repeated insults).
func (t *turn) readHistory() hints {
	h := hints{opening: len(t.req.History) == 0}
	last := ""
	var lastHash uint64
	var window []uint64
	var mine []string
	for _, m := range t.req.History {
		if m.Role == nadine.RoleAssistant {
			last = strings.TrimSpace(m.Content)
			lastHash = replyHash(last)
			window = append(window, lastHash)
			mine = append(mine, last)
		}
	}
	for i := len(window) - 1; i >= 0; i-- {
		t.said = append(t.said, window[i])
	}
	t.said = append(t.said, t.e.recent.said(t.req.ConversationID, lastHash, last != "")...)
	if last != "" {
		for _, lang := range nadine.Languages() {
			if q := t.e.nameQuestion[lang]; q != "" && strings.HasSuffix(last, q) {
				h.pendingName = lang
			}
		}
		for _, q := range t.e.howQuestions {
			if strings.HasSuffix(last, q) {
				h.pendingHow = true
				break
			}
		}
		h.listening = t.e.empathy[last]
		h.greeted = t.e.greetLines[last]
		if t.e.topics != nil {
			h.place = t.e.topics.statedPlace(last)
		}
	}
	for i := len(mine) - 1; i >= 0 && i >= len(mine)-worryWindow; i-- {
		if t.e.empathy[mine[i]] {
			h.worried = true
		}
	}
	return h
}

// priorInsults counts the insults the person said earlier in the window,
// by the classifier alone (their words, not their context).
func (t *turn) priorInsults() int {
	n := 0
	for _, m := range t.req.History {
		if m.Role != nadine.RoleUser {
			continue
		}
		if top := t.e.classifyPart(intents.Tokenize(m.Content)).Top(); strings.HasPrefix(top.Label, "insult") && top.Prob >= t.e.threshold {
			n++
		}
	}
	return n
}

// slots are the values a template's placeholders take.
type slots struct {
	name, time, date, song, fact, lang string
	from                               string // where the person comes from
}

// finish fills the reply from its sentences, remembers it and emits the
// turn's events.
func (t *turn) finish(r nadine.Reply, sentences []string, lang nadine.Language) nadine.Reply {
	r.Text = strings.Join(sentences, sentenceSeparator(lang))
	r.Language = lang
	r.UserID, r.UserName = t.userID, t.name()
	r.CausingPerson = nadine.CausedByHuman
	if r.UserName != "" {
		r.CausingPerson = r.UserName
	}
	r.Gestures = t.gestures
	// Remembered once the reply is out: a turn that is never published
	// (an early turn cancelled) leaves nothing.
	conv, hash := t.req.ConversationID, replyHash(r.Text)
	t.req.RunAfterReply(t.ctx, func(context.Context) { t.e.recent.add(conv, hash) })

	emit := t.req.Emit
	if emit == nil {
		emit = func(nadine.Event) {}
	}
	for _, ev := range t.before {
		emit(ev)
	}
	for _, g := range t.gestures {
		emit(nadine.Event{Kind: nadine.EventGesture, Gesture: g})
	}
	for _, sent := range sentences {
		emit(nadine.Event{Kind: nadine.EventSpeech, Text: sent, Language: lang})
	}
	for _, ev := range t.after {
		emit(ev)
	}
	return r
}

// splitReply splits a quoted text into its (at most two) sentences.
func splitReply(text string) []string { return limitSentences(text) }

func clampGrade(g int) int { return max(1, min(3, g)) }

// fallbackDown reports whether an earlier engine could not reach its model:
// only then may Nadine say her language model is unavailable.
func (t *turn) fallbackDown() bool {
	switch t.req.FallbackReason {
	case nadine.EUNAVAILABLE, nadine.ERATELIMIT:
		return true
	}
	return false
}

// whyOffline says truly why Nadine answers with rules.
func (t *turn) whyOffline() string {
	switch {
	case t.fallbackDown():
		return tWhyUnavailable
	case t.req.FallbackReason != "":
		return tWhyError
	}
	return tWhyConfig
}

// limit is the honest line for what Nadine cannot answer: what she can do
// instead, with the reason the first time a model failure is the reason.
func (t *turn) limit() string {
	songs := t.hasSongs()
	pick := func(plain, withSongs string) string {
		if songs {
			return withSongs
		}
		return plain
	}
	switch {
	case t.fallbackDown() && !t.saidLead(tLimitLeadDown):
		return pick(tDefaultDown, tDefaultDownSongs)
	case t.req.FallbackReason != "" && !t.fallbackDown() && !t.saidLead(tLimitLeadError):
		return pick(tDefaultErr, tDefaultErrSongs)
	}
	return pick(tDefault, tDefaultSongs)
}

// saidLead reports whether one of Nadine's replies in the window starts
// with a lead of key (in any language): a reason is said once.
func (t *turn) saidLead(key string) bool {
	for _, m := range t.req.History {
		if m.Role != nadine.RoleAssistant {
			continue
		}
		for _, lines := range t.e.replies {
			for _, lead := range lines[key] {
				if strings.HasPrefix(strings.TrimSpace(m.Content), lead) {
					return true
				}
			}
		}
	}
	return false
}

// choose renders a wording of key not yet said, in an order that depends on the
// conversation so visitors hear different first lines; else the oldest said.
func (t *turn) choose(lang nadine.Language, key string, s slots) string {
	lines := t.e.replies[lang][key]
	if len(lines) == 0 {
		lines = t.e.replies[nadine.English][key]
	}
	if len(lines) == 0 {
		return ""
	}
	start := 0
	if t.req.ConversationID != "" {
		h := fnv.New32a()
		h.Write([]byte(t.req.ConversationID))
		h.Write([]byte(key))
		start = int(h.Sum32() % uint32(len(lines)))
	}
	best, bestAge := "", -1
	for i := range lines {
		text := t.render(lines[(start+i)%len(lines)], s, lang)
		age := t.age(text)
		if age < 0 {
			return text
		}
		if age > bestAge {
			best, bestAge = text, age
		}
	}
	// Every wording was said: once more, announced ("Here is a classic:
	// …", "As I said: …"), within the two sentences and the words a reply
	// may have.
	pk, ok := againKeys[key]
	if !ok {
		pk = tAgainFact
	}
	for _, p := range t.e.replies[lang][pk] {
		for i := range lines {
			again := p + sentenceSeparator(lang) + t.render(lines[(start+i)%len(lines)], s, lang)
			if len(spoken.SplitSentences(again)) <= 2 && spokenWords(again) <= maxWords && t.age(again) < 0 {
				return again
			}
		}
	}
	return best
}

// age returns how many replies ago Nadine said text in this conversation
// (0 for her last reply), or -1 when she did not.
func (t *turn) age(text string) int {
	h := replyHash(strings.Join(limitSentences(text), " "))
	h2 := replyHash(strings.Join(limitSentences(text), ""))
	for i, x := range t.said {
		if x == h || x == h2 {
			return i
		}
	}
	return -1
}

// render fills a template with the turn's slots and the persona.
func (t *turn) render(tmpl string, s slots, lang nadine.Language) string {
	p := t.e.persona
	year := t.e.now().In(t.e.loc).Year()
	place := p.Place.In(lang)
	if place == "" {
		place = placeName(p.Place.In(nadine.English))
	}
	values := map[string]string{
		"name": s.name, "time": s.time, "date": s.date, "song": s.song, "fact": s.fact, "lang": s.lang, "from": s.from,
		"me": p.Name, "kind": p.Kind.In(lang), "team": p.Team.In(lang), "made_at": p.MadeAt.In(lang),
		"city": p.City.In(lang), "year": strconv.Itoa(p.FirstPresented), "age": strconv.Itoa(p.Age(year)),
		"home": p.Home.In(lang), "place": place, "creator": p.Creator, "modeled": p.ModeledOn,
	}
	return fill(tmpl, values)
}

// placeName turns "at the Swiss Museum of Transport" into "the Swiss
// Museum of Transport", for languages the place has no translation in.
func placeName(english string) string {
	for _, p := range []string{"at ", "in ", "on "} {
		if rest, ok := strings.CutPrefix(english, p); ok {
			return rest
		}
	}
	return english
}

// gesture adds a gesture to the reply.
func (t *turn) gesture(g nadine.Gesture) { t.gestures = append(t.gestures, g) }

// line renders a template's first wording (remembered facts are said once); a
// language without the key falls back to English.
func (e *Engine) line(lang nadine.Language, key string, s slots) string {
	lines := e.replies[lang][key]
	if len(lines) == 0 {
		lines = e.replies[nadine.English][key]
	}
	if len(lines) == 0 {
		return ""
	}
	return fill(lines[0], map[string]string{"fact": s.fact, "name": s.name})
}

// fill replaces tmpl's placeholders with values as they are: a placeholder
// inside a value is not expanded; an unknown one stays.
func fill(tmpl string, values map[string]string) string {
	if !strings.Contains(tmpl, "{") {
		return tmpl
	}
	var b strings.Builder
	b.Grow(len(tmpl) + 32)
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		b.WriteString(tmpl[:i])
		if v, ok := values[tmpl[i+1:i+j]]; ok {
			b.WriteString(v)
		} else {
			b.WriteString(tmpl[i : i+j+1])
		}
		tmpl = tmpl[i+j+1:]
	}
}

// limitSentences enforces the two-sentence rule on a rendered line
// (a title or a remembered fact may carry its own full stop).
func limitSentences(text string) []string {
	s := spoken.SplitSentences(text)
	if len(s) > 2 {
		s = s[:2]
	}
	return s
}

// sentenceSeparator joins sentences: a space, none in Chinese.
func sentenceSeparator(lang nadine.Language) string {
	if lang == nadine.Chinese {
		return ""
	}
	return " "
}
