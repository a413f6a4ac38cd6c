package offline_test

import (
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/offline"
)

// TestNameRules keeps this round's rules for names no example holds, each
// with what it must leave alone: a context after the name outranks the
// greeting that opens the clause; after her greeting, or a greeting and
// her name, a word no example knows is the name when "my name" (which
// then states it) or what comes with an introduction follows; a weak context before an unknown word after a greeting is an
// introduction; a Chinese full name before "是我的名字" or after "我姓X".
// want is the name said back, "" when the turn must be no introduction.
func TestNameRules(t *testing.T) {
	t.Parallel() // reads the shared model, writes nothing shared
	e := testEngine(offline.Options{})
	hello := map[nadine.Language]string{nadine.English: "Hi", nadine.French: "Salut", nadine.German: "Hallo", nadine.Chinese: "你好"}
	for _, tt := range []struct {
		lang    nadine.Language
		greeted bool // the second turn, after her greeting
		text    string
		want    string
	}{
		// A context after the name, after a greeting in one clause.
		{nadine.German, false, "hallo kerstin mein name", "Kerstin"},
		{nadine.German, false, "servus jörg mein name", "Jörg"},
		{nadine.German, false, "hi ulrike mein name", "Ulrike"},
		{nadine.German, false, "hallo nadine torsten ist mein name", "Torsten"},
		{nadine.English, false, "hello nadine gwendolyn is my name", "Gwendolyn"},
		{nadine.French, false, "bonjour nadine ludivine à l'appareil", "Ludivine"},
		// "my name" after a name states it, in a second turn too.
		{nadine.German, true, "Kerstin mein Name", "Kerstin"},
		{nadine.French, true, "Baptiste c'est mon nom, et toi", "Baptiste"},
		{nadine.French, true, "maëlys c'est mon nom", "Maëlys"},
		{nadine.French, false, "Salut, Maëlys c'est mon nom", "Maëlys"},
		// An unknown word after her greeting, or after a greeting and her name.
		{nadine.French, false, "bonjour nadine thibault enchanté", "Thibault"},
		{nadine.German, false, "hallo nadine malte freut mich", "Malte"},
		{nadine.English, false, "hey beverly and i'm from dundee", "Beverly"},
		{nadine.German, true, "Heike, und du?", "Heike"},
		{nadine.German, true, "gerlinde und du", "Gerlinde"},
		{nadine.English, true, "declan here", "Declan"},
		// Left alone: whom a greeting addresses, a word alone or before a
		// question (nothing tells slang from a name), words of address, her
		// name split or alone, a call to someone, a known word.
		{nadine.German, false, "hallo malte", ""},
		{nadine.German, false, "hallo nadine malte", ""},
		{nadine.English, false, "hey nadine lol", ""},
		{nadine.English, true, "yeah", ""},
		{nadine.French, true, "mdr", ""},
		{nadine.French, false, "bonjour nadine chérie ça va", ""},
		{nadine.German, false, "Grüß Gott, junge Dame!", ""},
		{nadine.German, false, "Guten Tag, werte Dame.", ""},
		{nadine.German, false, "Servus beinand", ""},
		{nadine.German, false, "servus roboterdame", ""},
		{nadine.German, false, "hallo na dine", ""},
		{nadine.Chinese, false, "nadine yyds", ""},
		{nadine.French, false, "Bonjour-hi!", ""},
		{nadine.French, false, "Coucou. Corentin, viens voir !", ""},
		{nadine.German, true, "Danke", ""},
		{nadine.English, true, "weather?", ""},
		// A weak context before an unknown word, after a greeting.
		{nadine.German, true, "ich bin Rüdiger", "Rüdiger"},
		{nadine.German, false, "grüezi ich bin rüdiger", "Rüdiger"},
		{nadine.French, true, "je suis solène", "Solène"},
		{nadine.English, true, "it's beverly", "Beverly"},
		{nadine.English, false, "I'm knackered", ""},
		// A weak context before a lowercase word that says how or when of
		// what follows is no introduction; a surname or what comes with a
		// name after it leaves the name.
		{nadine.English, false, "it is almost evening already i'm totally wiped out", ""},
		{nadine.English, false, "it's nearly noon and i'm starving", ""},
		{nadine.English, false, "it's almost closing time", ""},
		{nadine.English, false, "it's totally crazy in here today", ""},
		{nadine.English, false, "i'm totally wiped out", ""},
		{nadine.English, false, "i'm kinda bored", ""},
		{nadine.French, false, "c moi maëlys jsuis en 4e", "Maëlys"},
		{nadine.English, false, "hi i'm tom from leeds", "Tom"},
		{nadine.English, false, "i'm tom smith nice to meet you", "Tom"},
		{nadine.English, false, "hello im jake how are you", "Jake"},
		{nadine.English, false, "hi i'm sam here with my kids", "Sam"},
		// Chinese: before "是我的名字", and the whole name after "我姓X".
		{nadine.Chinese, false, "你好Nadine冯涛是我的名字", "冯涛"},
		{nadine.Chinese, false, "哈喽彭嘉怡是我的名字我从成都来", "彭嘉怡"},
		{nadine.Chinese, false, "你好邓佳是我的名字认识你很高兴", "邓佳"},
		{nadine.Chinese, true, "我姓蒋，蒋雯", "蒋雯"},
		{nadine.Chinese, true, "我姓宋宋子豪认识你很高兴", "宋子豪"},
		{nadine.Chinese, true, "我的名字是蒋雯认识你很高兴", "蒋雯"},
		{nadine.Chinese, false, "这是我的名字吗", ""},
	} {
		var hist []nadine.Message
		if tt.greeted {
			hist = []nadine.Message{{Role: nadine.RoleUser, Content: hello[tt.lang]}, {Role: nadine.RoleAssistant, Content: greetedBack[tt.lang]}}
		}
		r := respond(t, e, nadine.Turn{Text: tt.text, Language: tt.lang}, hist...)
		switch {
		case tt.want != "" && !saysName(r, tt.want):
			t.Errorf("%s %q (greeted %t) → %s %q, want the name %s", tt.lang, tt.text, tt.greeted, r.intent(), r.reply.Text, tt.want)
		case tt.want == "" && r.intent() == "name":
			t.Errorf("%s %q (greeted %t) → a name: %q", tt.lang, tt.text, tt.greeted, r.reply.Text)
		}
	}
}

// TestOwnNameEnd: "my name" right after a name ends within four words.
func TestOwnNameEnd(t *testing.T) {
	for _, tt := range []struct {
		text string
		want int
	}{
		{"c'est mon nom, et toi", 3},
		{"mein Name", 2},
		{"ist mein Vorname", 3},
		{"is my name", 3},
		{"und du", 0},
		{"c'est quoi ton nom", 0},
	} {
		if got := offline.OwnNameEnd(tt.text); got != tt.want {
			t.Errorf("OwnNameEnd(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}
