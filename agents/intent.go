package agents

import (
	"context"

	"github.com/nadine-robot/nadine"
)

// intentClassifier is the intention_classifier node: the model's label,
// checked, a language change applied, then the deterministic overrides.
type intentClassifier struct {
	model   nadine.ChatModel // role intent_classifier; nil continues the conversation
	prompts prompts
}

// run is the node.
func (c intentClassifier) run(ctx context.Context, s State) (State, error) {
	tr := nadine.TraceFrom(ctx)
	msg := s.latest()
	label, raw, err := classifyIntent(ctx, c.model, c.prompts, msg)
	switch {
	case err != nil:
		tr.Fail("intent_classifier", err)
		label = IntentContinue
	case !label.Valid():
		tr.Notef("intent: %q is not an intent; continue_conversation", nadine.Shorten(raw, 60))
		label = IntentContinue
	default:
		noteNormalized(tr, "intent", raw, string(label))
	}
	if label == IntentLanguageChange {
		if l, err := nadine.ParseLanguage(msg); err == nil {
			s.Language = l
			s.live.send(nadine.Event{Kind: nadine.EventLanguage, Language: l})
			tr.Notef("intent: language change to %s", l.Name())
		} else {
			tr.Notef("intent: language change asked, but no supported language named")
		}
		label = IntentContinue
	}
	label, s, notes := Override(label, msg, s)
	for _, n := range notes {
		tr.Notef("intent: %s", n)
	}
	s.Intent = label
	if label == IntentForgetMe {
		// The dialogue manager asks for confirmation and erases; the
		// run ends after the group (afterUnderstand).
		s.live.send(nadine.Event{Kind: nadine.EventForgetRequest})
	}
	return s, nil
}

// classifyIntent asks the intent model for the label of msg, read by
// parseIntent ("" when the answer names none); raw is the model's answer.
func classifyIntent(ctx context.Context, m nadine.ChatModel, p prompts, msg string) (label Intent, raw string, err error) {
	content, err := ask(ctx, m, nadine.ChatRequest{Role: RoleIntent, Format: intentFormat, Messages: []nadine.ChatMessage{
		{Role: nadine.RoleSystem, Content: p.render("intent", nil)},
		{Role: nadine.RoleUser, Content: msg},
	}})
	if err != nil {
		return "", "", err
	}
	return parseIntent(content), content, nil
}

// hasNameIntroduction reports whether text introduces someone by name.
func hasNameIntroduction(text string) bool {
	if IntroducedName(text) != "" {
		return true
	}
	for _, ip := range introPhrases {
		if !ip.loose && containsAny(text, []string{ip.phrase}) {
			return true
		}
	}
	return false
}

// Override applies the intent agent's deterministic corrections to a valid
// label, with a note per correction (docs/architecture.md, agents).
func Override(label Intent, message string, s State) (Intent, State, []string) {
	var notes []string
	change := func(to Intent, why string) {
		notes = append(notes, string(label)+" → "+string(to)+": "+why)
		label = to
	}
	intro := hasNameIntroduction(message)
	if label == IntentFirstGreeting && intro {
		change(IntentUpdateUserInfo, "the greeting introduces a name")
	}
	if label == IntentUpdateUserInfo && !intro && AsksAboutNadine(message) {
		change(IntentContinue, "a question about Nadine")
	}
	if label == IntentEndConversation && !HasFarewell(message) {
		change(IntentContinue, "no farewell word")
	}
	if label == IntentFirstGreeting {
		id := s.UserInfo.ID
		switch {
		case !realID(id):
			s.FirstGreetingDone = true
		case s.FirstGreetingDone && s.GreetedUserID == id:
			change(IntentContinue, "this user was already greeted")
		default:
			s.FirstGreetingDone, s.GreetedUserID = true, id
		}
	}
	if s.confirmationPending() && label != IntentUpdateUserInfo && label != IntentForgetMe {
		change(IntentUpdateUserInfo, "a name confirmation is pending")
	}
	return label, s, notes
}
