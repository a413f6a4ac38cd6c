package offline_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/spoken"
)

// FuzzRespond feeds the engine what speech-to-text and people send: any
// text, in any session language, after a reply of hers. Whatever comes in,
// she answers with a valid reply of at most two sentences in a supported
// language, never panics, and a reply of her own templates stays within 30
// words. Run it for minutes with
//
//	go test -run '^$' -fuzz FuzzRespond -fuzztime 5m ./offline
func FuzzRespond(f *testing.F) {
	for _, s := range []string{
		"Hello!", "What is your name?", "Wie heißt du?", "你好，你叫什么名字？", "Tell me about MIRALab", "I am sad today",
		"You are stupid", "Je vais bien, et vous ?", "Mir ist langweilig", "我今天很难过", "Sing a song", "Quelle heure est-il ?",
		"My name is Alex, and you?", "I'm 30, and you?", "Speak French", "你会说日语吗？", "Why are you offline?", "帮我叫辆出租车",
		"Not bad", "pas terrible", "nicht so gut", "不太好", "I'm not happy", "", "   ", "\xff\xfe", "😀", "?!?!", "12345",
		"my name is my name is my name is", "je m'appelle", "我叫", "and you and you", "sei nicht wütend nicht",
		strings.Repeat("ha", 300), "Hello\nworld", "l'l'l'", "---", "你好Hello你好", "Sing ein französisches Lied",
	} {
		f.Add(s, "en", "")
		f.Add(s, "zh", "I am very well, thank you for asking! How are you?")
	}
	e := offline.New(offline.Options{Songs: func(l nadine.Language) []nadine.Song {
		if l == nadine.French {
			return []nadine.Song{{Title: "Frère Jacques", Language: nadine.French, Path: "/fr.mp3"}}
		}
		return nil
	}})
	f.Fuzz(func(t *testing.T, text, lang, last string) {
		var history []nadine.Message
		if last != "" {
			history = []nadine.Message{{Role: nadine.RoleUser, Content: "Hello"}, {Role: nadine.RoleAssistant, Content: last}}
		}
		r, err := e.Respond(context.Background(), nadine.Request{Turn: nadine.Turn{Text: text, Language: nadine.Language(lang)},
			History: history, ConversationID: "fuzz"})
		if err != nil {
			t.Fatalf("Respond(%q): %v", text, err)
		}
		if strings.TrimSpace(r.Text) == "" || !utf8.ValidString(r.Text) || !r.Language.Valid() || !r.Emotion.Valid() {
			t.Fatalf("Respond(%q) = %+v", text, r)
		}
		if n := len(spoken.SplitSentences(r.Text)); n > 2 {
			t.Fatalf("Respond(%q): %d sentences in %q", text, n, r.Text)
		}
		if r.EmotionIntensity < 0 || r.EmotionIntensity > 10 {
			t.Fatalf("Respond(%q): intensity %d", text, r.EmotionIntensity)
		}
		// A name taken from the input may be long; everything else is hers.
		if r.UserName == "" && offline.SpokenWords(r.Text) > offline.MaxWords {
			t.Fatalf("Respond(%q): %d words in %q", text, offline.SpokenWords(r.Text), r.Text)
		}
	})
}
