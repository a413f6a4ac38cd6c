package agents_test

import (
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
)

func TestOverride(t *testing.T) {
	alex := agents.UserInfo{ID: "alex-1", Name: "Alex"}
	unknown := agents.UserInfo{ID: nadine.UnknownUser}
	greeted := agents.State{UserInfo: alex, FirstGreetingDone: true, GreetedUserID: "alex-1"}
	greetedOther := agents.State{UserInfo: alex, FirstGreetingDone: true, GreetedUserID: "bea-2"}
	pending := agents.State{UserInfo: unknown, NameConfirmation: agents.NameConfirmation{
		GivenName: "Alise", SimilarNames: []string{"Alice"}, SimilarIDs: []string{"alice-1"}}}

	tests := []struct {
		name    string
		label   agents.Intent
		message string
		state   agents.State
		want    agents.Intent
	}{
		// 1. A greeting that introduces a name updates the user info.
		{"greeting with I'm", agents.IntentFirstGreeting, "Hi, I'm Alex!", agents.State{UserInfo: unknown}, agents.IntentUpdateUserInfo},
		{"greeting with my name is", agents.IntentFirstGreeting, "Hello, my name is Alice Smith", agents.State{UserInfo: unknown}, agents.IntentUpdateUserInfo},
		{"greeting with call me", agents.IntentFirstGreeting, "Good morning, call me Sam", agents.State{UserInfo: unknown}, agents.IntentUpdateUserInfo},
		{"greeting with je m'appelle", agents.IntentFirstGreeting, "Bonjour, je m’appelle Léa", agents.State{UserInfo: unknown}, agents.IntentUpdateUserInfo},
		{"greeting with ich heiße", agents.IntentFirstGreeting, "Hallo, ich heiße Jonas", agents.State{UserInfo: unknown}, agents.IntentUpdateUserInfo},
		{"greeting with 我叫", agents.IntentFirstGreeting, "你好，我叫小明", agents.State{UserInfo: unknown}, agents.IntentUpdateUserInfo},
		{"greeting with I'm fine", agents.IntentFirstGreeting, "Hi Nadine, I'm fine", agents.State{UserInfo: unknown}, agents.IntentFirstGreeting},
		{"plain greeting", agents.IntentFirstGreeting, "Hello Nadine!", agents.State{UserInfo: unknown}, agents.IntentFirstGreeting},
		// 2. A question about Nadine is not a profile update.
		{"tell me about yourself", agents.IntentUpdateUserInfo, "Tell me about yourself.", agents.State{}, agents.IntentContinue},
		{"who are you", agents.IntentUpdateUserInfo, "Who are you exactly?", agents.State{}, agents.IntentContinue},
		{"qui êtes-vous", agents.IntentUpdateUserInfo, "Qui êtes-vous ?", agents.State{}, agents.IntentContinue},
		{"wer bist du", agents.IntentUpdateUserInfo, "Wer bist du?", agents.State{}, agents.IntentContinue},
		{"你是谁", agents.IntentUpdateUserInfo, "你是谁？", agents.State{}, agents.IntentContinue},
		{"name and question", agents.IntentUpdateUserInfo, "I'm Alex, and who are you?", agents.State{}, agents.IntentUpdateUserInfo},
		{"real update", agents.IntentUpdateUserInfo, "I work at CERN.", agents.State{}, agents.IntentUpdateUserInfo},
		// 3. A farewell needs a farewell word.
		{"future plan", agents.IntentEndConversation, "I'm going to Paris next week.", agents.State{}, agents.IntentContinue},
		{"have to go later", agents.IntentEndConversation, "I have to go to the dentist tomorrow.", agents.State{}, agents.IntentContinue},
		{"bye", agents.IntentEndConversation, "Bye Nadine!", agents.State{}, agents.IntentEndConversation},
		{"goodbye", agents.IntentEndConversation, "Goodbye.", agents.State{}, agents.IntentEndConversation},
		{"see you", agents.IntentEndConversation, "See you tomorrow", agents.State{}, agents.IntentEndConversation},
		{"have to go now", agents.IntentEndConversation, "Sorry, I have to go now.", agents.State{}, agents.IntentEndConversation},
		{"au revoir", agents.IntentEndConversation, "Au revoir Nadine", agents.State{}, agents.IntentEndConversation},
		{"à bientôt", agents.IntentEndConversation, "Merci, à bientôt !", agents.State{}, agents.IntentEndConversation},
		{"tschüss", agents.IntentEndConversation, "Tschüss!", agents.State{}, agents.IntentEndConversation},
		{"ich muss los", agents.IntentEndConversation, "Ich muss los.", agents.State{}, agents.IntentEndConversation},
		{"再见", agents.IntentEndConversation, "好的，再见！", agents.State{}, agents.IntentEndConversation},
		{"byelaw is no farewell", agents.IntentEndConversation, "What is a byelaw?", agents.State{}, agents.IntentContinue},
		// 4. One greeting per user, unless nobody is known.
		{"first greeting of Alex", agents.IntentFirstGreeting, "Hello!", agents.State{UserInfo: alex}, agents.IntentFirstGreeting},
		{"Alex greets again", agents.IntentFirstGreeting, "Hello!", greeted, agents.IntentContinue},
		{"Alex after Bea", agents.IntentFirstGreeting, "Hello!", greetedOther, agents.IntentFirstGreeting},
		{"unknown greets again", agents.IntentFirstGreeting, "Hello!", agents.State{UserInfo: unknown, FirstGreetingDone: true}, agents.IntentFirstGreeting},
		{"no user id at all", agents.IntentFirstGreeting, "Hello!", agents.State{FirstGreetingDone: true}, agents.IntentFirstGreeting},
		// A pending confirmation forces update_user_info.
		{"pending confirmation", agents.IntentContinue, "Yes", pending, agents.IntentUpdateUserInfo},
		{"pending but checked", agents.IntentContinue, "Yes", func() agents.State { s := pending; s.NameChecked = true; return s }(), agents.IntentContinue},
		{"continue stays", agents.IntentContinue, "What time is it?", agents.State{}, agents.IntentContinue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, notes := agents.Override(tt.label, tt.message, tt.state)
			if got != tt.want {
				t.Errorf("Override(%s, %q) = %s, want %s (notes %q)", tt.label, tt.message, got, tt.want, notes)
			}
			if (got != tt.label) != (len(notes) > 0) {
				t.Errorf("notes %q for %s → %s", notes, tt.label, got)
			}
		})
	}
}

func TestOverrideGreetingBookkeeping(t *testing.T) {
	s := agents.State{UserInfo: agents.UserInfo{ID: "alex-1", Name: "Alex"}}
	got, s, _ := agents.Override(agents.IntentFirstGreeting, "Hello", s)
	if got != agents.IntentFirstGreeting || !s.FirstGreetingDone || s.GreetedUserID != "alex-1" {
		t.Fatalf("first greeting: %s, done %v, greeted %q", got, s.FirstGreetingDone, s.GreetedUserID)
	}
	if got, _, _ := agents.Override(agents.IntentFirstGreeting, "Hello", s); got != agents.IntentContinue {
		t.Errorf("second greeting: %s", got)
	}
}

func TestIntroducedName(t *testing.T) {
	tests := map[string]string{
		"I'm Alex":                     "Alex",
		"No, I'm Alice Smith.":         "Alice Smith",
		"my name is léa":               "Léa",
		"Call me Sam, please":          "Sam",
		"Je m'appelle Léa":             "Léa",
		"Ich heiße Jonas":              "Jonas",
		"我叫小明":                         "小明",
		"对，我是Alice":                    "Alice",
		"I'm fine, thanks":             "",
		"I am so happy":                "",
		"Oui, c'est ça":                "",
		"Yes, it's me":                 "",
		"What's the weather in Paris?": "",
	}
	for in, want := range tests {
		if got := agents.IntroducedName(in); got != want {
			t.Errorf("IntroducedName(%q) = %q, want %q", in, got, want)
		}
	}
}
