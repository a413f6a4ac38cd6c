package offline

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
)

// Options configures an Engine. The zero value is a working engine that
// keeps names for the session only.
type Options struct {
	// Store persists the names people give, so that a later run recognizes
	// them ("Do you remember me?"). Nil keeps names for the session only.
	Store nadine.ProfileStore
	// Now tells the time (default time.Now).
	Now func() time.Time
	// NewUserID makes the id of a person who gives a name Nadine has not
	// heard before (default nadine.NewUserID: "alex-3f9a1c").
	NewUserID func(name string) string
	// Location is where the robot is, for the time and the date (default
	// time.Local).
	Location *time.Location
	// Songs returns the song library's songs in a language. Nil means no
	// song library: Nadine says she cannot sing in offline mode.
	Songs func(lang nadine.Language) []nadine.Song
	// Logger receives debug lines and store failures (default: discard).
	Logger *slog.Logger
}

// Engine is the rule-based engine. It is safe for concurrent use.
type Engine struct {
	store        nadine.ProfileStore
	now          func() time.Time
	newUserID    func(string) string
	loc          *time.Location
	songs        func(nadine.Language) []nadine.Song
	log          *slog.Logger
	match        *matcher
	replies      map[nadine.Language]map[string][]string
	calendars    map[nadine.Language]wordTable
	ordinals     [31]string
	notNames     map[string]bool
	nameStops    map[string]bool
	langNotNames map[string]bool
	nameQuestion map[nadine.Language]string // the sentence that asks for a name
}

var _ nadine.Engine = (*Engine)(nil)

// New returns an engine configured by opts.
func New(opts Options) *Engine {
	e := &Engine{
		store:        opts.Store,
		now:          opts.Now,
		newUserID:    opts.NewUserID,
		loc:          opts.Location,
		songs:        opts.Songs,
		log:          opts.Logger,
		match:        newMatcher(phraseTable()),
		replies:      replyTable(),
		calendars:    calendars(),
		ordinals:     germanOrdinals(),
		notNames:     notNames(),
		nameStops:    nameStops(),
		langNotNames: langNotNames(),
		nameQuestion: make(map[nadine.Language]string),
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
	for lang, table := range e.replies {
		if lines := table[tRememberUnknown]; len(lines) > 0 {
			if s := nadine.SplitSentences(lines[0]); len(s) > 0 {
				e.nameQuestion[lang] = s[len(s)-1]
			}
		}
	}
	return e
}

// Name returns "offline".
func (e *Engine) Name() string { return "offline" }

// Respond answers one turn. It never fails: a store that cannot be reached
// only costs the persistence of a name, which the trace records. It emits
// the user and language events first, then the gestures, one speech event
// per sentence, and the song last; it does not emit EventDone.
func (e *Engine) Respond(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
	start := time.Now()
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
	t.variant, t.pending = e.history(req.History)
	c := e.classify(req.Turn.Text, t.session, t.pending)
	reply := t.answer(c)
	nadine.TraceFrom(ctx).AddStep(nadine.Step{
		Name:     "offline:" + c.intent.String(),
		Start:    start,
		Duration: time.Since(start),
		Detail:   "language=" + string(reply.Language),
	})
	e.log.Debug("offline reply", "intent", c.intent.String(), "language", reply.Language, "user", reply.UserID)
	return reply, nil
}

// history counts Nadine's earlier messages (to vary her wording) and
// reports, in its language, whether her last message asked for the
// person's name.
func (e *Engine) history(msgs []nadine.Message) (variant int, pending nadine.Language) {
	last := ""
	for _, m := range msgs {
		if m.Role == nadine.RoleAssistant {
			variant++
			last = m.Content
		}
	}
	if last != "" {
		for _, lang := range nadine.Languages() {
			if q := e.nameQuestion[lang]; q != "" && strings.HasSuffix(strings.TrimSpace(last), q) {
				return variant, lang
			}
		}
	}
	return variant, ""
}

// turn is the state of one Respond call.
type turn struct {
	e        *Engine
	ctx      context.Context
	req      nadine.Request
	session  nadine.Language
	variant  int
	pending  nadine.Language
	userID   string
	userName string

	nameLoaded    bool
	profile       nadine.Profile
	profileLoaded bool
	hasProfile    bool

	before   []nadine.Event // emitted before the speech
	after    []nadine.Event // emitted after the speech
	gestures []nadine.Gesture
}

// slots are the values a template's placeholders take.
type slots struct {
	name, time, date, song, fact string
}

// answer builds, checks and emits the reply for c.
func (t *turn) answer(c classified) nadine.Reply {
	lang := c.lang.Or(t.session)
	r := nadine.Reply{Category: nadine.CategoryOther, Emotion: nadine.Joy}
	var key string
	var s slots
	withName := func(plain, named string) string {
		if s.name = t.name(); s.name != "" {
			return named
		}
		return plain
	}
	switch c.intent {
	case iGreeting:
		key = withName(tGreet, tGreetName)
		r.Category, r.EmotionIntensity = nadine.CategoryGreeting, 5
		t.gesture(nadine.Wave)
	case iFarewell:
		key = withName(tFarewell, tFarewellName)
		r.Category, r.EmotionIntensity = nadine.CategoryFarewell, 3
		t.gesture(nadine.Wave)
	case iName:
		key, s.fact = t.introduce(c.name, lang)
		s.name = t.userName
		r.EmotionIntensity = 6
		if c.greeting {
			r.Category = nadine.CategoryGreeting
			t.gesture(nadine.Wave)
		}
	case iRemember:
		key, s.name, s.fact = t.remember(lang)
		r.Emotion, r.EmotionIntensity = nadine.Joy, 6
		if s.name == "" {
			r.Emotion, r.EmotionIntensity = nadine.Neutral, 0
		}
	case iTime, iDate, iDateTime:
		now := t.e.now().In(t.e.loc)
		s.time = formatTime(now, lang)
		s.date = formatDate(now, lang, t.e.calendars[lang], &t.e.ordinals)
		switch c.intent {
		case iTime:
			key = tTime
		case iDate:
			key = tDate
		default:
			key = tDateTime
		}
		r.Category, r.Emotion, r.EmotionIntensity = nadine.CategoryInformation, nadine.Neutral, 0
	case iHowAreYou:
		key = withName(tHow, tHowName)
		r.EmotionIntensity = 6
		if c.greeting {
			r.Category = nadine.CategoryGreeting
			t.gesture(nadine.Wave)
		}
	case iSmile:
		key, r.EmotionIntensity = tSmile, 6
		t.gesture(nadine.Smile)
	case iWave:
		key, r.EmotionIntensity = tWave, 4
		t.gesture(nadine.Wave)
	case iAnger:
		key, r.Emotion, r.EmotionIntensity = tAnger, nadine.Anger, 6
		t.gesture(nadine.AngerFace)
	case iCalm:
		key, r.EmotionIntensity = tCalm, 3
	case iSong:
		key, s.song = t.song(c.songLang.Or(lang))
		r.EmotionIntensity = 5
		if key == tSongNone {
			r.Emotion, r.EmotionIntensity = nadine.Sadness, 2
		}
	case iLangSwitch:
		lang = c.target
		key, r.EmotionIntensity = tLangSwitch, 3
		t.before = append(t.before, nadine.Event{Kind: nadine.EventLanguage, Language: lang})
	case iLangUnsupported:
		key, r.Emotion, r.EmotionIntensity = tLangUnsupported, nadine.Sadness, 2
	case iLanguages:
		key, r.EmotionIntensity = tLanguages, 2
		r.Category = nadine.CategoryInformation
	case iAbilities:
		key, r.EmotionIntensity = tAbilities, 3
		if t.e.songs == nil {
			key = tAbilitiesNoSong
		}
		r.Category = nadine.CategoryInformation
	case iInsult:
		key = withName(tInsult, tInsultName)
		r.Category, r.Emotion, r.EmotionIntensity = nadine.CategoryInsult, nadine.Anger, 7
		t.gesture(nadine.AngerFace)
	case iCompliment:
		key = withName(tCompliment, tComplimentName)
		r.Category, r.EmotionIntensity = nadine.CategoryComplement, 7
		t.gesture(nadine.Smile)
	case iThanks:
		key, r.EmotionIntensity = tThanks, 4
	default:
		key, r.Emotion, r.EmotionIntensity = tDefault, nadine.Neutral, 0
	}

	sentences := limitSentences(t.e.line(lang, key, t.variant, s))
	r.Text = strings.Join(sentences, sentenceSeparator(lang))
	r.Language = lang
	r.UserID, r.UserName = t.userID, t.name()
	r.CausingPerson = nadine.CausedByHuman
	if r.UserName != "" {
		r.CausingPerson = r.UserName
	}
	r.Gestures = t.gestures

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

// gesture adds a gesture to the reply.
func (t *turn) gesture(g nadine.Gesture) { t.gestures = append(t.gestures, g) }

// line renders a template: the wording picked by variant, placeholders
// filled. A language without the key falls back to English.
func (e *Engine) line(lang nadine.Language, key string, variant int, s slots) string {
	lines := e.replies[lang][key]
	if len(lines) == 0 {
		lines = e.replies[nadine.English][key]
	}
	if len(lines) == 0 {
		return ""
	}
	return fill(lines[variant%len(lines)], s)
}

// fill replaces the placeholders of tmpl. Values are inserted as they are:
// a placeholder inside a value is not expanded.
func fill(tmpl string, s slots) string {
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
		switch tmpl[i+1 : i+j] {
		case "name":
			b.WriteString(s.name)
		case "time":
			b.WriteString(s.time)
		case "date":
			b.WriteString(s.date)
		case "song":
			b.WriteString(s.song)
		case "fact":
			b.WriteString(s.fact)
		default:
			b.WriteString(tmpl[i : i+j+1])
		}
		tmpl = tmpl[i+j+1:]
	}
}

// limitSentences enforces seed 000's two-sentence rule on a rendered line
// (a title or a remembered fact may carry its own full stop).
func limitSentences(text string) []string {
	s := nadine.SplitSentences(text)
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

// known reports whether id names a person.
func known(id string) bool { return id != "" && id != nadine.UnknownUser }

// fail records a store failure; the turn goes on without the store.
func (t *turn) fail(op string, err error) {
	nadine.TraceFrom(t.ctx).Fail("offline:store", err)
	t.e.log.Warn("offline: store failed", "op", op, "user", t.userID, "err", err)
}

// loadProfile returns the current user's stored profile, once per turn.
func (t *turn) loadProfile() (nadine.Profile, bool) {
	if t.profileLoaded {
		return t.profile, t.hasProfile
	}
	t.profileLoaded = true
	if t.e.store == nil || !known(t.userID) {
		return nadine.Profile{}, false
	}
	p, err := t.e.store.Profile(t.ctx, t.userID)
	if err != nil {
		if nadine.ErrorCode(err) != nadine.ENOTFOUND {
			t.fail("profile", err)
		}
		return nadine.Profile{}, false
	}
	t.profile, t.hasProfile = p, true
	return p, true
}

// name returns the current user's name: the turn's, else the store's.
func (t *turn) name() string {
	if t.userName != "" || t.nameLoaded {
		return t.userName
	}
	t.nameLoaded = true
	if t.e.store == nil || !known(t.userID) {
		return ""
	}
	if p, ok := t.loadProfile(); ok && strings.TrimSpace(p.UserName) != "" {
		t.userName = strings.TrimSpace(p.UserName)
		return t.userName
	}
	// A name without a profile (recorded by face recognition).
	users, err := t.e.store.Users(t.ctx)
	if err != nil {
		t.fail("users", err)
		return ""
	}
	for _, u := range users {
		if u.ID == t.userID {
			t.userName = strings.TrimSpace(u.Name)
			break
		}
	}
	return t.userName
}

// introduce settles who gave the name: a person the store already knows
// by that name (welcome back), the current person if nobody had named them
// yet, or a new person. It emits the user event and returns the template
// key and a remembered fact.
func (t *turn) introduce(name string, lang nadine.Language) (key, fact string) {
	st := t.e.store
	current, currentName := t.userID, t.name()
	id, back := "", false
	switch {
	case known(current) && strings.EqualFold(currentName, name):
		id, back = current, true
	case st != nil:
		users, err := st.Users(t.ctx)
		if err != nil {
			t.fail("users", err)
			break
		}
		for _, u := range users {
			if strings.EqualFold(strings.TrimSpace(u.Name), name) && (id == "" || u.ID == current) {
				id, back = u.ID, true
			}
		}
	}
	saved := false
	if !back {
		if known(current) && currentName == "" {
			id = current // a recognized face without a name
		} else {
			id = t.e.newUserID(name)
		}
		if st != nil {
			p := nadine.Profile{}
			if id == current {
				p, _ = t.loadProfile()
			}
			p.UserID, p.UserName, p.LastUpdated = id, name, t.e.now()
			if err := st.SaveProfile(t.ctx, p); err != nil {
				t.fail("save profile", err)
			} else {
				saved = true
			}
		}
	}
	if id != current {
		t.profileLoaded, t.hasProfile, t.profile = false, false, nadine.Profile{}
	}
	t.userID, t.userName, t.nameLoaded = id, name, true
	t.before = append(t.before, nadine.Event{Kind: nadine.EventUser, User: &nadine.UserRef{ID: id, Name: name}})
	switch {
	case back:
		if p, ok := t.loadProfile(); ok {
			if k, v := factOf(p); k != "" {
				return tNameBackFact, t.e.line(lang, k, 0, slots{fact: v})
			}
		}
		return tNameBack, ""
	case saved:
		return tNameSaved, ""
	}
	return tNameNew, ""
}

// remember answers "Do you remember me?".
func (t *turn) remember(lang nadine.Language) (key, name, fact string) {
	name = t.name()
	if name == "" {
		return tRememberUnknown, "", ""
	}
	if p, ok := t.loadProfile(); ok {
		if k, v := factOf(p); k != "" {
			return tRememberFact, name, t.e.line(lang, k, 0, slots{fact: v})
		}
	}
	return tRememberName, name, ""
}

// factOf picks the one remembered fact Nadine mentions: company, position,
// location, hobby, interest, in that order.
func factOf(p nadine.Profile) (key, value string) {
	first := func(xs []string) string {
		for _, x := range xs {
			if x = strings.TrimSpace(x); x != "" {
				return x
			}
		}
		return ""
	}
	for _, f := range []struct{ key, value string }{
		{tFactCompany, strings.TrimSpace(p.CurrentCompany)},
		{tFactPosition, strings.TrimSpace(p.CurrentPosition)},
		{tFactLocation, strings.TrimSpace(p.Location)},
		{tFactHobby, first(p.Hobbies)},
		{tFactInterest, first(p.Interests)},
	} {
		if f.value != "" {
			return f.key, f.value
		}
	}
	return "", ""
}

// song picks the first song of the library in lang and queues it after
// the announcement.
func (t *turn) song(lang nadine.Language) (key, title string) {
	if t.e.songs == nil {
		return tSongNone, ""
	}
	for _, s := range t.e.songs(lang) {
		if s.Language != "" && s.Language != lang {
			continue
		}
		if strings.TrimSpace(s.Title) == "" {
			continue
		}
		song := s
		t.after = append(t.after, nadine.Event{Kind: nadine.EventSong, Song: &song})
		return tSong, strings.TrimSpace(s.Title)
	}
	return tSongNone, ""
}
