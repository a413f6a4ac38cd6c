package dialogue

import (
	"context"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/spoken"
)

var _ nadine.UserEraser = (*Manager)(nil)

// EraseUser forgets a person in the session (nadine.Forgetter) after the turn
// in flight; called back by this manager's own spoken forget, it returns at once.
func (m *Manager) EraseUser(_ context.Context, userID string) error {
	if !knownUser(userID) {
		return nil
	}
	m.rememberErased(userID)
	m.mu.Lock()
	self := m.erasing == userID
	m.mu.Unlock()
	if self {
		return nil
	}
	m.lockTurn()
	defer m.turnMu.Unlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sess.User.ID == userID {
		m.sess = stranger(m.sess)
		m.personStored = false
	}
	return nil
}

// ErasePresent is EraseUser for another robot's spoken forget: it waits only
// when the person is in front, so robots never wait for each other's turns.
func (m *Manager) ErasePresent(ctx context.Context, userID string) error {
	if !knownUser(userID) {
		return nil
	}
	m.rememberErased(userID)
	m.mu.Lock()
	present := m.sess.User.ID == userID
	m.mu.Unlock()
	if !present {
		return nil
	}
	return m.EraseUser(ctx, userID)
}

// maxErased bounds how many erased ids a manager remembers.
const maxErased = 256

// rememberErased keeps an erased id so that a late sighting of it (face
// recognition may still send it) does not bring the person back.
func (m *Manager) rememberErased(userID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.wasErasedLocked(userID) {
		return
	}
	m.erased = append(m.erased, userID)
	if n := len(m.erased) - maxErased; n > 0 {
		m.erased = append([]string(nil), m.erased[n:]...)
	}
}

// Erased reports whether the person was erased while the process runs.
func (m *Manager) Erased(userID string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.wasErasedLocked(userID)
}

func (m *Manager) wasErasedLocked(userID string) bool {
	for _, id := range m.erased {
		if id == userID {
			return true
		}
	}
	return false
}

// The spoken forget. An engine that hears "forget me" emits an
// EventForgetRequest; the turn's reply is then the manager's: a stranger
// is told that nothing is kept about them, a known person is asked to
// confirm (Session.ConfirmForget). Their next utterance is read by
// ReadAnswer before any engine (an answer the engines read as the same
// request again, with nothing against it, is a yes): a clear yes erases them through
// ManagerOptions.Forget (the erase path of the CLI and the API) and the
// session becomes a stranger's; a clear no keeps everything; anything else
// drops the question and goes to the engines, nothing erased.

// forgetEngine names the turns the manager answers itself in the trace.
const forgetEngine = "forget"

// forgetLine keys the manager's sentences about forgetting.
type forgetLine int

const (
	lineAsk       forgetLine = iota // the confirmation question, {name} the person's
	lineAskNoName                   // the same without a name
	lineForgotten                   // erased: the session is a stranger's
	lineKept                        // a no: nothing erased
	lineStranger                    // a stranger asked: nothing is kept
	lineFailed                      // the erase failed, or cannot be done here
)

// forgetLines are the manager's sentences, in each language (formal
// address, as the offline engine's).
var forgetLines = map[nadine.Language]map[forgetLine]string{
	nadine.English: {
		lineAsk:       "{name}, do you want me to forget everything I know about you? Please answer yes or no.",
		lineAskNoName: "Do you want me to forget everything I know about you? Please answer yes or no.",
		lineForgotten: "I have forgotten everything I knew about you. To me, you are a new visitor now.",
		lineKept:      "All right, I will not forget anything. Everything stays as it was.",
		lineStranger:  "I do not know who you are, so I keep nothing about you. What we say now is forgotten when you leave.",
		lineFailed:    "Sorry, I could not erase what I know about you just now. Please ask the staff to delete your data.",
	},
	nadine.French: {
		lineAsk:       "{name}, voulez-vous que j'oublie tout ce que je sais de vous ? Répondez par oui ou par non, s'il vous plaît.",
		lineAskNoName: "Voulez-vous que j'oublie tout ce que je sais de vous ? Répondez par oui ou par non, s'il vous plaît.",
		lineForgotten: "J'ai oublié tout ce que je savais de vous. Pour moi, nous nous rencontrons pour la première fois.",
		lineKept:      "D'accord, je n'oublie rien. Tout reste comme avant.",
		lineStranger:  "Je ne sais pas qui vous êtes, donc je ne garde rien sur vous. Ce que nous disons maintenant sera oublié quand vous partirez.",
		lineFailed:    "Désolée, je n'ai pas pu effacer ce que je sais de vous pour le moment. Demandez au personnel de supprimer vos données, s'il vous plaît.",
	},
	nadine.German: {
		lineAsk:       "{name}, soll ich alles vergessen, was ich über Sie weiß? Bitte antworten Sie mit Ja oder Nein.",
		lineAskNoName: "Soll ich alles vergessen, was ich über Sie weiß? Bitte antworten Sie mit Ja oder Nein.",
		lineForgotten: "Ich habe alles vergessen, was ich über Sie wusste. Für mich begegnen wir uns jetzt zum ersten Mal.",
		lineKept:      "Gut, ich vergesse nichts. Alles bleibt, wie es war.",
		lineStranger:  "Ich weiß nicht, wer Sie sind, deshalb speichere ich nichts über Sie. Was wir jetzt sagen, vergesse ich, sobald Sie gehen.",
		lineFailed:    "Entschuldigung, ich konnte gerade nicht löschen, was ich über Sie weiß. Bitte wenden Sie sich an das Personal, um Ihre Daten zu löschen.",
	},
	nadine.Chinese: {
		lineAsk:       "{name}，您要我忘记我所知道的关于您的一切吗？请回答是或不是。",
		lineAskNoName: "您要我忘记我所知道的关于您的一切吗？请回答是或不是。",
		lineForgotten: "我已经忘记了关于您的一切。对我来说，我们现在是第一次见面。",
		lineKept:      "好的，我不会忘记任何事情。一切保持原样。",
		lineStranger:  "我不知道您是谁，所以我没有保存任何关于您的信息。我们现在说的话，在您离开后就会被忘记。",
		lineFailed:    "抱歉，我现在无法删除关于您的信息。请联系工作人员删除您的数据。",
	},
}

// sayForget speaks one of the manager's lines in lang as the turn's reply:
// the engine's reply (if any) is replaced.
func (t *turnRun) sayForget(r nadine.Reply, line forgetLine, lang nadine.Language, name string) nadine.Reply {
	lines, ok := forgetLines[lang]
	if !ok {
		lang, lines = nadine.DefaultLanguage, forgetLines[nadine.DefaultLanguage]
	}
	text := lines[line]
	if line == lineAsk {
		text = strings.ReplaceAll(text, "{name}", name)
	}
	for _, s := range spoken.SplitSentences(text) {
		t.out.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: s, Language: lang})
	}
	t.out.Wait()
	said, _, _ := t.out.said()
	r.Text, r.Language = strings.Join(said, " "), lang
	r.Emotion, r.EmotionIntensity, r.Category = nadine.Neutral, 0, nadine.CategoryOther
	return r
}

// confirmationAnswer reads a turn that answers the forget question: a clear
// yes or no is the manager's to answer (ok); anything else goes to the engines.
func (t *turnRun) confirmationAnswer() (nadine.Reply, bool) {
	if !t.req.Session.ConfirmForget {
		return nadine.Reply{}, false
	}
	t.answered, t.answerObjects = readAnswer(t.text)
	if t.answered == AnswerUnclear {
		t.trace.Notef("forget: the answer to the confirmation is unclear: nothing is erased, the engines answer")
		return nadine.Reply{}, false
	}
	t.trace.Notef("forget: the answer to the confirmation is %s", t.answered)
	t.trace.SetEngine(forgetEngine)
	return nadine.Reply{Language: t.req.Turn.Language}, true
}

// settleForget finishes a turn about forgetting once it is the turn heard: it
// answers the confirmation (erasing on yes), asks for it, or drops the question.
func (t *turnRun) settleForget(ctx context.Context, r nadine.Reply) nadine.Reply {
	m, lang := t.m, t.req.Turn.Language
	if t.req.Session.ConfirmForget && t.answered == AnswerUnclear && t.forgetAsked && !t.answerObjects {
		// The answer asks again to be forgotten ("忘了我吧", "just delete
		// it"), with no negation, hesitation or question: it is a yes.
		t.answered = AnswerYes
		t.trace.Notef("forget: the answer to the confirmation repeats the request")
		t.trace.Notef("forget: the answer to the confirmation is %s", t.answered)
		t.trace.SetEngine(forgetEngine)
	}
	switch {
	case t.answered == AnswerYes:
		return t.sayForget(r, t.forgetPerson(ctx), lang, "")
	case t.answered == AnswerNo:
		m.setConfirmForget(t.req.Turn.UserID, false)
		m.log.Info("spoken forget declined: nothing erased", "language", lang)
		return t.sayForget(r, lineKept, lang, "")
	case t.req.Session.ConfirmForget:
		m.setConfirmForget(t.req.Turn.UserID, false) // unclear: the engines answered
	}
	if !t.forgetAsked {
		return r
	}
	m.mu.Lock()
	user := m.sess.User
	m.mu.Unlock()
	switch {
	case !knownUser(user.ID):
		t.trace.Notef("forget: a stranger asked: nothing is kept about them")
		return t.sayForget(r, lineStranger, lang, "")
	case m.opts.Forget == nil:
		t.trace.Notef("forget: no erase path is configured here")
		m.log.Warn("spoken forget: no erase path configured; the person was told to ask the staff")
		return t.sayForget(r, lineFailed, lang, "")
	}
	m.setConfirmForget(user.ID, true)
	t.trace.Notef("forget: asked the person to confirm")
	if user.Name != "" {
		return t.sayForget(r, lineAsk, lang, user.Name)
	}
	return t.sayForget(r, lineAskNoName, lang, "")
}

// setConfirmForget sets or clears the pending forget question, if userID
// is still the session's person.
func (m *Manager) setConfirmForget(userID string, on bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sess.User.ID == userID {
		m.sess.ConfirmForget = on
	}
}

// forgetPerson erases the session's person after their yes. The session is
// saved naming nobody first, so the erase leaves no trace of their id.
func (t *turnRun) forgetPerson(ctx context.Context) forgetLine {
	m := t.m
	m.mu.Lock()
	id := m.sess.User.ID
	m.mu.Unlock()
	switch {
	case !knownUser(id) || id != t.req.Turn.UserID:
		t.trace.Notef("forget: the person is no longer in front of the robot: nothing erased")
		return lineStranger
	case m.opts.Forget == nil:
		m.setConfirmForget(id, false)
		t.trace.Notef("forget: no erase path is configured here")
		return lineFailed
	}
	m.rememberErased(id)
	m.Forgotten(id)
	m.save(ctx)
	m.mu.Lock()
	m.erasing = id // EraseUser, called back by the erase path, does not wait for this turn
	m.mu.Unlock()
	fctx, done := nadine.BeginStep(ctx, "forget")
	err := m.opts.Forget(fctx, id)
	m.mu.Lock()
	m.erasing = ""
	m.mu.Unlock()
	if err != nil {
		// The error names the erased id: it is kept out of the log and
		// the trace.
		err = nadine.Errorf(nadine.ErrorCode(err), "%s", strings.ReplaceAll(err.Error(), id, "[person]"))
	}
	done(err)
	if err != nil {
		t.trace.Fail("forget", err)
		m.log.Warn("spoken forget: the erase failed in part; the person was told to ask the staff", "code", nadine.ErrorCode(err), "err", err)
		return lineFailed
	}
	t.trace.Notef("forget: the person was erased at their request; the session is a stranger's")
	m.log.Info("person forgotten at their request", "language", t.req.Turn.Language)
	return lineForgotten
}
