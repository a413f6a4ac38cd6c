package offline

import (
	"strconv"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// response is what a handler decided to say: a template and its slots, or a
// text said as it is (a section of an ingested document).
type response struct {
	key    string
	slots  slots
	quoted string
}

// handler answers one intent.
type handler func(t *turn, c classified, r *nadine.Reply) response

// handlers answer each intent; the knowledge base (then the honest limit)
// answers the rest.
var handlers = map[intent]handler{
	iGreeting:        (*turn).greet,
	iFarewell:        (*turn).farewell,
	iName:            (*turn).introduction,
	iRemember:        (*turn).recall,
	iForgetMe:        (*turn).forgetMe,
	iTime:            (*turn).clock,
	iDate:            (*turn).clock,
	iDateTime:        (*turn).clock,
	iHowAreYou:       (*turn).howAreYou,
	iSmile:           (*turn).smile,
	iWave:            (*turn).wave,
	iAnger:           (*turn).angerFace,
	iCalm:            (*turn).calm,
	iSong:            (*turn).sing,
	iLangSwitch:      (*turn).switchLanguage,
	iLangUnsupported: (*turn).unsupportedLanguage,
	iLanguages:       (*turn).languages,
	iAbilities:       (*turn).tellAbilities,
	iInsult:          (*turn).insult,
	iCompliment:      (*turn).compliment,
	iThanks:          (*turn).thanks,
	iApology:         (*turn).apology,
	iFeeling:         (*turn).feeling,
	iListen:          (*turn).listen,
	iWeather:         (*turn).weather,
	iJoke:            (*turn).joke,
	iFavorite:        (*turn).favorite,
	iDoing:           (*turn).doing,
	iFromUser:        (*turn).fromUser,
	iOfflineWhy:      (*turn).offlineWhy,
	iPersona:         (*turn).persona,
}

// answer builds, checks and emits the reply for c.
func (t *turn) answer(c classified) nadine.Reply {
	t.lang = c.lang.Or(t.session)
	t.outcome = c
	r := nadine.Reply{Category: nadine.CategoryOther, Emotion: nadine.Joy}
	h, ok := handlers[c.intent]
	if !ok {
		h = (*turn).knowledge
	}
	res := h(t, c, &r)
	if res.quoted != "" {
		return t.finish(r, splitReply(res.quoted), t.lang)
	}
	said := limitSentences(t.choose(t.lang, res.key, res.slots))
	if c.leaving && len(said) > 0 {
		// Praise said in leaving is thanked, then the visitor is seen off:
		// her thanks and the first sentence of a farewell.
		bye := t.withName(tFarewell, tFarewellName)
		if line := limitSentences(t.choose(t.lang, bye.key, bye.slots)); len(line) > 0 {
			said = []string{said[0], line[0]}
			t.gesture(nadine.Wave)
		}
	}
	return t.finish(r, said, t.lang)
}

// withName returns named, with the person's name in the slots, when Nadine
// knows it; else plain.
func (t *turn) withName(plain, named string) response {
	if name := t.name(); name != "" {
		return response{key: named, slots: slots{name: name}}
	}
	return response{key: plain}
}

func (t *turn) greet(_ classified, r *nadine.Reply) response {
	r.Category, r.EmotionIntensity = nadine.CategoryGreeting, 5
	t.gesture(nadine.Wave)
	return t.withName(tGreet, tGreetName)
}

func (t *turn) farewell(_ classified, r *nadine.Reply) response {
	r.Category, r.EmotionIntensity = nadine.CategoryFarewell, 3
	t.gesture(nadine.Wave)
	return t.withName(tFarewell, tFarewellName)
}

// introduction answers a person who gives their name.
func (t *turn) introduction(c classified, r *nadine.Reply) response {
	key, fact := t.introduce(c.name, t.lang)
	if key == tNameSaved && c.andYou {
		key = tNameSavedYou
	}
	r.EmotionIntensity = 6
	if c.greeting {
		r.Category = nadine.CategoryGreeting
		t.gesture(nadine.Wave)
	}
	return response{key: key, slots: slots{name: t.userName, fact: fact}}
}

// recall answers "Do you remember me?".
func (t *turn) recall(_ classified, r *nadine.Reply) response {
	key, name, fact := t.remember(t.lang)
	r.Emotion, r.EmotionIntensity = nadine.Joy, 6
	if name == "" {
		r.Emotion, r.EmotionIntensity = nadine.Neutral, 0
	}
	return response{key: key, slots: slots{name: name, fact: fact}}
}

// forgetMe says nothing of its own: the dialogue manager asks the person to
// confirm and erases them on a clear yes.
func (t *turn) forgetMe(_ classified, r *nadine.Reply) response {
	t.before = append(t.before, nadine.Event{Kind: nadine.EventForgetRequest})
	r.Emotion, r.EmotionIntensity = nadine.Neutral, 0
	return response{}
}

// clock tells the time, the date or both.
func (t *turn) clock(c classified, r *nadine.Reply) response {
	now := t.e.now().In(t.e.loc)
	s := slots{time: formatTime(now, t.lang), date: formatDate(now, t.lang, t.e.calendars[t.lang], &t.e.ordinals)}
	r.Category, r.Emotion, r.EmotionIntensity = nadine.CategoryInformation, nadine.Neutral, 0
	switch c.intent {
	case iTime:
		return response{key: tTime, slots: s}
	case iDate:
		return response{key: tDate, slots: s}
	}
	return response{key: tDateTime, slots: s}
}

// howAreYou lets her mood colour the answer but never asks the visitor to
// cheer her up; after a worry she turns the question back to them.
func (t *turn) howAreYou(c classified, r *nadine.Reply) response {
	r.EmotionIntensity = 5
	if c.greeting {
		r.Category = nadine.CategoryGreeting
		t.gesture(nadine.Wave)
	}
	if t.hints.worried {
		return response{key: tHowCaring}
	}
	if m := t.req.Mood; (m.Label == nadine.Sadness || m.Label == nadine.Anger) && m.Intensity >= 0.4 {
		r.Emotion = nadine.Sadness
		return response{key: tHowUpset}
	}
	return t.withName(tHow, tHowName)
}

func (t *turn) smile(_ classified, r *nadine.Reply) response {
	r.EmotionIntensity = 6
	t.gesture(nadine.Smile)
	return response{key: tSmile}
}

func (t *turn) wave(_ classified, r *nadine.Reply) response {
	r.EmotionIntensity = 4
	t.gesture(nadine.Wave)
	return response{key: tWave}
}

func (t *turn) angerFace(_ classified, r *nadine.Reply) response {
	r.Emotion, r.EmotionIntensity = nadine.Anger, 6
	t.gesture(nadine.AngerFace)
	return response{key: tAnger}
}

func (t *turn) calm(_ classified, r *nadine.Reply) response {
	r.EmotionIntensity = 3
	return response{key: tCalm}
}

// sing announces a song of the library and queues it.
func (t *turn) sing(c classified, r *nadine.Reply) response {
	key, song, lang := t.song(c.songLang.Or(t.lang), t.lang)
	r.EmotionIntensity = 5
	if key != tSong && key != tSongOtherLang {
		r.Emotion, r.EmotionIntensity = nadine.Sadness, 2
	}
	return response{key: key, slots: slots{song: song, lang: lang}}
}

// switchLanguage switches to the language asked for, and says so in it.
func (t *turn) switchLanguage(c classified, r *nadine.Reply) response {
	t.lang = c.target
	r.EmotionIntensity = 3
	t.before = append(t.before, nadine.Event{Kind: nadine.EventLanguage, Language: c.target})
	return response{key: tLangSwitch}
}

func (t *turn) unsupportedLanguage(_ classified, r *nadine.Reply) response {
	r.Emotion, r.EmotionIntensity = nadine.Sadness, 2
	return response{key: tLangUnsupported}
}

func (t *turn) languages(_ classified, r *nadine.Reply) response {
	r.Category, r.EmotionIntensity = nadine.CategoryInformation, 2
	return response{key: tLanguages}
}

func (t *turn) tellAbilities(_ classified, r *nadine.Reply) response {
	r.Category, r.EmotionIntensity = nadine.CategoryInformation, 3
	return response{key: t.abilities()}
}

// insult answers an insult: sharper for a strong word, and sharper again
// each time the person insults her in the same conversation.
func (t *turn) insult(c classified, r *nadine.Reply) response {
	grade := clampGrade(clampGrade(c.grade) + t.priorInsults())
	r.Category = nadine.CategoryInsult
	switch grade {
	case 1:
		r.Emotion, r.EmotionIntensity = nadine.Sadness, 3
		return response{key: tInsultMild}
	case 2:
		r.Emotion, r.EmotionIntensity = nadine.Anger, 7
		t.gesture(nadine.AngerFace)
		return response{key: tInsult}
	}
	r.Emotion, r.EmotionIntensity = nadine.Anger, 9
	t.gesture(nadine.AngerFace)
	return response{key: tInsultSevere}
}

func (t *turn) compliment(c classified, r *nadine.Reply) response {
	g := clampGrade(c.grade)
	r.Category, r.EmotionIntensity = nadine.CategoryComplement, 2+2*g
	t.gesture(nadine.Smile)
	return response{key: []string{tComplimentMild, tCompliment, tComplimentHigh}[g-1]}
}

func (t *turn) thanks(_ classified, r *nadine.Reply) response {
	r.EmotionIntensity = 4
	return response{key: tThanks}
}

// apology accepts an apology; after an insult she forgives it.
func (t *turn) apology(_ classified, r *nadine.Reply) response {
	if t.priorInsults() > 0 {
		r.EmotionIntensity = 4
		return response{key: tForgive}
	}
	r.EmotionIntensity = 3
	return response{key: tNoNeedSorry}
}

// feelingReplies says how Nadine meets each feeling: the template (and the one
// after "and you?"), her emotion, its intensity, and whether she smiles.
var feelingReplies = map[string]struct {
	key, andYou string
	emotion     nadine.Emotion
	intensity   int
	smile       bool
}{
	feelGood:     {tFeelGood, tFeelGoodYou, nadine.Joy, 6, false},
	feelSad:      {tFeelSad, tFeelSadYou, nadine.Sadness, 5, false},
	feelTired:    {tTired, "", nadine.Sadness, 2, false},
	feelStress:   {tStress, "", nadine.Sadness, 3, false},
	feelSick:     {tSick, "", nadine.Sadness, 4, false},
	feelBored:    {tBored, "", nadine.Joy, 3, false},
	feelAngry:    {tAngryUser, "", nadine.Sadness, 3, false},
	feelNewsBad:  {tNewsBad, "", nadine.Sadness, 7, false},
	feelNewsGood: {tNewsGood, "", nadine.Joy, 8, true},
	feelBirthday: {tBirthday, "", nadine.Joy, 8, true},
}

// feeling answers what the person feels or tells: empathy, joy for good
// news.
func (t *turn) feeling(c classified, r *nadine.Reply) response {
	f, ok := feelingReplies[c.feel]
	if !ok {
		f = feelingReplies[feelGood]
	}
	r.Emotion, r.EmotionIntensity = f.emotion, f.intensity
	if f.smile {
		t.gesture(nadine.Smile)
	}
	if c.andYou && f.andYou != "" {
		return response{key: f.andYou}
	}
	return response{key: f.key}
}

// listen answers what the person tells after her empathy.
func (t *turn) listen(_ classified, r *nadine.Reply) response {
	r.Emotion, r.EmotionIntensity = nadine.Sadness, 2
	return response{key: tListen}
}

func (t *turn) weather(_ classified, r *nadine.Reply) response {
	r.Category, r.Emotion, r.EmotionIntensity = nadine.CategoryInformation, nadine.Neutral, 0
	return response{key: tWeather}
}

func (t *turn) joke(_ classified, r *nadine.Reply) response {
	r.EmotionIntensity = 5
	t.gesture(nadine.Smile)
	return response{key: tJoke}
}

func (t *turn) favorite(_ classified, r *nadine.Reply) response {
	r.EmotionIntensity = 4
	return response{key: tFavorite}
}

func (t *turn) doing(_ classified, r *nadine.Reply) response {
	r.EmotionIntensity = 4
	return response{key: tDoing}
}

// fromUser answers where the person comes from with where she does.
func (t *turn) fromUser(c classified, r *nadine.Reply) response {
	r.EmotionIntensity = 5
	if c.place != "" {
		t.detail = "place=" + strconv.Quote(c.place)
		return response{key: tFromUserPlace, slots: slots{from: c.place}}
	}
	return response{key: tFromUser}
}

func (t *turn) offlineWhy(_ classified, r *nadine.Reply) response {
	r.Category, r.Emotion, r.EmotionIntensity = nadine.CategoryInformation, nadine.Neutral, 0
	return response{key: t.whyOffline()}
}

// persona answers a question about Nadine from her persona.
func (t *turn) persona(c classified, r *nadine.Reply) response {
	r.Category, r.EmotionIntensity = nadine.CategoryInformation, 3
	t.detail = "fact=" + c.fact
	key, s := t.fact(c.fact, t.lang)
	return response{key: key, slots: s}
}

// knowledge answers from the knowledge base; a question no section answers
// gets the fact the classifier read, else the honest limit.
func (t *turn) knowledge(c classified, r *nadine.Reply) response {
	if ans, ok := t.searchKnowledge(t.req.Turn.Text, c.fact); ok {
		t.outcome.intent = iKnowledge
		r.Category, r.EmotionIntensity = nadine.CategoryInformation, 3
		t.detail = "source=" + strconv.Quote(ans.source)
		if ans.text != "" {
			t.lang = ans.lang.Or(t.lang)
			return response{quoted: ans.text}
		}
		t.outcome.fact = ans.fact
		t.detail = "fact=" + ans.fact + " " + t.detail
		key, s := t.fact(ans.fact, t.lang)
		return response{key: key, slots: s}
	}
	routed := false // the route weighed every fact's words: no name overrides it
	if c.fact == "" && c.intent == iDefault && c.prob < routeNoneBar {
		// None of the intents: a question about a knowledge topic, by its
		// closeness to the topic's passage in the turn's language, unless
		// the classifier reads it as none more likely than not.
		if f, ok := t.e.topic(t.req.Turn.Text, t.lang); ok && t.e.ofHer(f, intents.Tokenize(t.req.Turn.Text), t.req.Turn.Text, t.lang) {
			c.fact, routed = f, true
			t.outcome.intent, t.outcome.fact = iKnowledge, f
			t.detail = "topic "
		}
	}
	if c.fact != "" {
		if f, ok := t.e.topics.named(t.req.Turn.Text, t.lang, c.fact); ok && !routed && t.e.readsFact(t.req.Turn.Text, f) {
			c.fact, t.outcome.fact = f, f
			t.detail += "named "
		}
		r.Category, r.EmotionIntensity = nadine.CategoryInformation, 3
		t.detail += "fact=" + c.fact
		key, s := t.fact(c.fact, t.lang)
		return response{key: key, slots: s}
	}
	t.outcome.intent = iDefault
	r.Emotion, r.EmotionIntensity = nadine.Neutral, 0
	return response{key: t.limit()}
}

// fact returns the template and slots of a fact. The facts other intents
// answer (the languages she speaks, what she can do) use theirs.
func (t *turn) fact(f string, lang nadine.Language) (string, slots) {
	switch f {
	case fLanguages:
		return tLanguages, slots{}
	case fAbilities:
		return t.abilities(), slots{}
	case fSinging:
		if !t.hasSongs() {
			return aboutKey(fSingingNone), slots{}
		}
	case fAge:
		if t.e.persona.Age(t.e.now().In(t.e.loc).Year()) == 0 {
			return aboutKey(fAgeNew), slots{}
		}
	case fPlace:
		if t.e.persona.Place.In(lang) == "" {
			return aboutKey(fPlaceOther), slots{}
		}
	}
	return aboutKey(f), slots{}
}

// abilities is what Nadine says she can do: singing only with songs.
func (t *turn) abilities() string {
	if t.hasSongs() {
		return tAbilities
	}
	return tAbilitiesNoSong
}
