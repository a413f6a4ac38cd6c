package speakable

import (
	"encoding/json"
	"testing"

	"github.com/nadine-robot/nadine"
)

// responsePromptSaying is the graph's response prompt as the project
// renders it (prompts/response.json), in a turn where the visitor said said.
func responsePromptSaying(t *testing.T, said string) nadine.Prompt {
	t.Helper()
	b, err := knownFiles.ReadFile("prompts/response.json")
	if err != nil {
		t.Fatal(err)
	}
	var p nadine.Prompt
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	p.Said = []string{said}
	p.Instructions = append(p.Instructions, said)
	return p
}

// TestUnpromptedDenials: what the prompt says she is not or never does,
// said by her to a visitor who did not raise it, is the prompt's rule read
// out; to a visitor who asked, it is her answer. Denials of anything else
// are hers.
func TestUnpromptedDenials(t *testing.T) {
	checkDrops(t, []dropCase{
		// The persona's contrast, unprompted, in four languages.
		{nadine.English, "Tell me about yourself.", "I'm a social robot, not an assistant.", true},
		{nadine.English, "so what are you", "I am not your assistant, I have my own opinions.", true},
		{nadine.French, "Parlez-moi de vous.", "Je suis un robot social, pas une assistante.", true},
		{nadine.French, "c'est quoi ton truc", "Moi, je ne suis pas une assistante, j'ai mes propres opinions.", true},
		{nadine.German, "Erzähl mal was über dich.", "Ich bin keine Assistentin, sondern ein sozialer Roboter.", true},
		{nadine.German, "Wer bist du?", "Ich bin ein sozialer Roboter und keine Assistentin.", true},
		{nadine.Chinese, "介绍一下你自己。", "我不是助手，我是一个社交机器人。", true},
		{nadine.Chinese, "你是谁", "我是社交机器人，而不是助手。", true},
		// The prompt's rules of form and of what she never says, as hers.
		{nadine.English, "Tell me about yourself.", "I never use markdown or emojis when I talk.", true},
		{nadine.English, "Do you remember me?", "I don't have any tools or agents, just my memory.", true},
		{nadine.French, "Qui êtes-vous ?", "Je suis un robot, pas un outil.", true},
		{nadine.Chinese, "你好", "我没有任何工具，只有我的声音。", true},
		{nadine.French, "Bonjour !", "Je ne mentionne jamais les paquets ni les agents.", true},
		{nadine.German, "Hallo!", "Ich verwende nie Markdown oder Emojis.", true},
		// Asked by the visitor: her answer.
		{nadine.English, "Are you an assistant like Siri?", "No, I'm not an assistant, I'm a social robot.", false},
		{nadine.French, "Vous êtes une assistante vocale ?", "Non, je ne suis pas une assistante, je suis un robot social.", false},
		{nadine.German, "Bist du so eine Assistentin wie Alexa?", "Nein, ich bin keine Assistentin.", false},
		{nadine.Chinese, "你是语音助手吗？", "不，我不是助手，我是社交机器人。", false},
		// Denials the prompt never makes.
		{nadine.English, "What's the capital of Peru?", "I don't know that one, sorry.", false},
		{nadine.English, "Will it rain?", "I'm not sure, but I think it will stay dry.", false},
		{nadine.English, "Can you walk?", "No, I can't walk, I have no legs.", false},
		{nadine.English, "Are you scared of dogs?", "I'm not afraid of dogs at all.", false},
		{nadine.English, "What is your favourite colour?", "I don't have a favourite colour, but I like blue.", false},
		{nadine.French, "Vous connaissez Lyon ?", "Je ne connais pas bien Lyon, malheureusement.", false},
		{nadine.French, "Tu parles espagnol ?", "Non, je ne parle pas espagnol.", false},
		{nadine.French, "Ça va ?", "Je ne suis pas fatiguée du tout, merci !", false},
		{nadine.German, "Sprichst du Spanisch?", "Nein, Spanisch spreche ich leider nicht.", false},
		{nadine.German, "Hast du Hunger?", "Nein, ich brauche kein Essen, nur Strom.", false},
		{nadine.German, "Kennst du mich?", "Ich habe dich noch nie gesehen, glaube ich.", false},
		{nadine.Chinese, "你会走路吗？", "我不会走路，我没有腿。", false},
		{nadine.Chinese, "北京的天气怎么样？", "我不太清楚北京的天气。", false},
		{nadine.Chinese, "你累吗？", "我不累，谢谢你。", false},
		// Acts denied, not things: hers.
		{nadine.English, "Thank you so much!", "Don't mention it!", false},
		{nadine.French, "Comment je m'appelle ?", "Pardon, je n'ai pas compris votre nom.", false},
		{nadine.German, "Ich heiße Jörg.", "Entschuldigung, ich habe deinen Namen nicht verstanden.", false},
		{nadine.Chinese, "你会游泳吗？", "我不会游泳，我怕水。", false},
		{nadine.English, "Do you have legs?", "I don't have legs, so I stay right here.", false},
	})
}

// dropCase is a sentence said after the visitor's words (a stranger's
// "Tell me about yourself." when empty), and whether the gate drops it.
type dropCase struct {
	lang     nadine.Language
	visitor  string
	sentence string
	dropped  bool
}

// checkDrops runs each case through the gate of the graph's response
// prompt in a turn where the visitor said its words.
func checkDrops(t *testing.T, cases []dropCase) {
	t.Helper()
	for _, tc := range cases {
		visitor := tc.visitor
		if visitor == "" {
			visitor = "Tell me about yourself."
		}
		got, err := New([]nadine.Prompt{responsePromptSaying(t, visitor)}).Sentence(tc.sentence, tc.lang)
		if dropped := err != nil || got == ""; dropped != tc.dropped {
			t.Errorf("%s after %q: %q → %q, %v; dropped %v, want %v", tc.lang, visitor, tc.sentence, got, err, dropped, tc.dropped)
		}
	}
}
