package offline_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/spoken"
)

// conversation plays turns through one engine as the dialogue manager
// does: the history window, the conversation id, the session language.
type conversation struct {
	t       *testing.T
	e       *offline.Engine
	id      string
	lang    nadine.Language
	mood    nadine.AffectState
	history []nadine.Message
}

func (c *conversation) say(text string) result {
	c.t.Helper()
	trace := nadine.NewTrace("t", text, fixedNow)
	ctx := nadine.WithTrace(context.Background(), trace)
	var events []nadine.Event
	r, err := c.e.Respond(ctx, nadine.Request{Turn: nadine.Turn{Text: text, Language: c.lang}, History: c.history,
		ConversationID: c.id, Mood: c.mood, Emit: func(ev nadine.Event) { events = append(events, ev) }})
	if err != nil {
		c.t.Fatal(err)
	}
	c.history = append(c.history, nadine.Message{Role: nadine.RoleUser, Content: text},
		nadine.Message{Role: nadine.RoleAssistant, Content: r.Text})
	if len(c.history) > 20 {
		c.history = c.history[len(c.history)-20:]
	}
	return result{reply: r, events: events, trace: trace.Snapshot()}
}

// TestFiveAsksFourReplies: the same question five times in a conversation
// gets at least four different replies, each in the question's language
// and at most two sentences.
func TestFiveAsksFourReplies(t *testing.T) {
	t.Parallel() // reads the shared model, writes nothing shared
	songs := func(l nadine.Language) []nadine.Song {
		return []nadine.Song{{Title: "Song " + string(l), Language: l, Path: "/songs/x.mp3"}}
	}
	questions := map[nadine.Language][]string{
		nadine.English: {"Hello", "Thank you", "How are you?", "You are smart", "I'm sad", "I'm so tired", "What is your name?",
			"Who are you?", "Who made you?", "How old are you?", "Where do you come from?", "Where are we?",
			"Who do you look like?", "Are you a robot?", "Do you have feelings?", "What can you do?",
			"Which languages do you speak?", "What is MIRALab?", "What time is it?", "What's the date?", "Smile",
			"Wave at me", "Sing a song", "Tell me a joke", "What's the capital of Chile?", "Goodbye"},
		nadine.French: {"Bonjour", "Merci", "Comment allez-vous ?", "Vous êtes intelligente", "Je suis triste",
			"Qui vous a créée ?", "Quel âge avez-vous ?", "Où sommes-nous ?", "Que savez-vous faire ?",
			"C'est quoi le MIRALab ?", "Quelle heure est-il ?", "Souriez", "Chantez une chanson", "Au revoir"},
		nadine.German: {"Hallo", "Danke", "Wie geht es Ihnen?", "Du bist klug", "Ich bin traurig", "Wer hat dich gebaut?",
			"Wie alt bist du?", "Wo sind wir?", "Was kannst du?", "Was ist das MIRALab?", "Wie spät ist es?",
			"Lächle mal", "Sing ein Lied", "Tschüss"},
		nadine.Chinese: {"你好", "谢谢", "你好吗？", "你真聪明", "我很难过", "谁创造了你？", "你几岁了？", "我们在哪里？",
			"你能做什么？", "MIRALab是什么？", "现在几点？", "笑一笑", "唱首歌", "再见"},
	}
	for lang, qs := range questions {
		for _, q := range qs {
			c := &conversation{t: t, e: testEngine(offline.Options{Songs: songs}), id: "five-" + q, lang: lang}
			seen := map[string]bool{}
			for range 5 {
				r := c.say(q)
				if r.reply.Language != lang || len(spoken.SplitSentences(r.reply.Text)) > 2 {
					t.Errorf("%s %q: %s %q", lang, q, r.reply.Language, r.reply.Text)
				}
				seen[r.reply.Text] = true
			}
			if len(seen) < 4 {
				t.Errorf("%s %q asked five times: %d different replies %q", lang, q, len(seen), keys(seen))
			}
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// backchannels are the lines she answers what continues a worry with; they
// must not answer anything else.
var backchannels = []string{"thank you for telling me", "i am listening", "sharing it with me", "trusting me",
	"merci de me l'avoir dit", "je vous écoute", "danke, dass sie mir das", "ich höre ihnen zu", "谢谢您告诉我", "我在听"}

// TestWorryLetsGo: once a person told her a worry, what continues it is
// listened to, and what is about something else is answered as itself.
func TestWorryLetsGo(t *testing.T) {
	for _, tt := range []struct {
		lang                     nadine.Language
		worry, more, time, other string
	}{
		{nadine.English, "I lost my job", "My boss said the company is closing", "Have you got the time?", "What's the capital of Peru?"},
		{nadine.French, "J'ai perdu mon travail", "Mon chef a dit que l'entreprise allait fermer", "Vous avez l'heure ?", "Quelle est la capitale du Pérou ?"},
		{nadine.German, "Ich habe meinen Job verloren", "Mein Chef hat gesagt, dass die Firma zumacht", "Wie spät ist es?", "Was ist die Hauptstadt von Peru?"},
		{nadine.Chinese, "我失业了", "老板说公司要关门了", "现在几点了？", "秘鲁的首都是哪里？"},
	} {
		c := &conversation{t: t, e: testEngine(offline.Options{}), id: "worry", lang: tt.lang}
		c.say("My name is Robin")
		if r := c.say(tt.worry); r.intent() != "feeling_news_bad" {
			t.Errorf("%s %q: [%s] %q", tt.lang, tt.worry, r.intent(), r.reply.Text)
		}
		if r := c.say(tt.more); r.intent() != "listen" {
			t.Errorf("%s %q after the worry: [%s] %q, want her to listen", tt.lang, tt.more, r.intent(), r.reply.Text)
		}
		for _, q := range []struct{ text, intent string }{{tt.time, "time"}, {tt.other, "default"}} {
			r := c.say(q.text)
			low := strings.ToLower(r.reply.Text)
			for _, b := range backchannels {
				if strings.Contains(low, b) {
					t.Errorf("%s %q after the worry: %q is a backchannel", tt.lang, q.text, r.reply.Text)
				}
			}
			if r.intent() != q.intent {
				t.Errorf("%s %q after the worry: [%s] %q, want %s", tt.lang, q.text, r.intent(), r.reply.Text, q.intent)
			}
		}
	}
}

// comfortAsks are ways of asking the visitor to look after her.
var comfortAsks = []string{"cheer me up", "kind word", "make me feel better", "comfort me", "hug", "mot gentil", "me remonter",
	"réconfort", "aufmuntern", "freundliches wort", "trösten", "好话", "安慰我", "让我开心起来"}

// TestHerMoodNeverAsksForComfort: her mood colours how she says she is,
// but she never asks the visitor to cheer her up; after the visitor's
// sadness she asks how they are.
func TestHerMoodNeverAsksForComfort(t *testing.T) {
	t.Parallel() // reads the shared model, writes nothing shared
	for _, tt := range []struct {
		lang     nadine.Language
		sad, how string
	}{
		{nadine.English, "I am feeling sad today", "How are you?"},
		{nadine.French, "Je suis triste aujourd'hui", "Comment allez-vous ?"},
		{nadine.German, "Ich bin heute traurig", "Wie geht es Ihnen?"},
		{nadine.Chinese, "我今天很难过", "你好吗？"},
	} {
		for _, mood := range []nadine.AffectState{{Label: nadine.Sadness, Intensity: 0.8}, {Label: nadine.Anger, Intensity: 0.6}} {
			for i := range 4 {
				c := &conversation{t: t, e: testEngine(offline.Options{}), id: "mood" + string(rune('a'+i)), lang: tt.lang, mood: mood}
				if i%2 == 1 {
					c.say(tt.sad)
				}
				r := c.say(tt.how)
				low := strings.ToLower(r.reply.Text)
				for _, a := range comfortAsks {
					if strings.Contains(low, a) {
						t.Errorf("%s %s mood, %q: %q asks for comfort", tt.lang, mood.Label, tt.how, r.reply.Text)
					}
				}
				if r.intent() != "how_are_you" {
					t.Errorf("%s %q: [%s]", tt.lang, tt.how, r.intent())
				}
				if i%2 == 1 && r.reply.Emotion == nadine.Sadness && !strings.ContainsAny(r.reply.Text, "?？") {
					t.Errorf("%s after the visitor's sadness: %q does not ask how they are", tt.lang, r.reply.Text)
				}
			}
		}
	}
}

// TestPendingQuestionLetsGo: her question for a name ends when the answer
// is about something else.
func TestPendingQuestionLetsGo(t *testing.T) {
	for _, tt := range []struct {
		lang            nadine.Language
		remember, other string
		intent          string
	}{
		{nadine.English, "Do you remember me?", "What time is it?", "time"},
		{nadine.French, "Vous vous souvenez de moi ?", "Qui vous a créée ?", "persona_creator"},
		{nadine.German, "Erinnerst du dich an mich?", "Tschüss!", "farewell"},
		{nadine.Chinese, "你记得我吗？", "你是机器人吗？", "persona_human"},
	} {
		c := &conversation{t: t, e: testEngine(offline.Options{}), id: "pending", lang: tt.lang}
		c.say(tt.remember)
		r := c.say(tt.other)
		if _, named := r.event(nadine.EventUser); named || r.intent() != tt.intent {
			t.Errorf("%s %q after her question: [%s] %q (named %v)", tt.lang, tt.other, r.intent(), r.reply.Text, named)
		}
	}
}
