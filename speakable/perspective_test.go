package speakable

import (
	"slices"
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestSwapPerson reads sentences with the person swapped, per language:
// pronouns, possessives and the verbs that agree with them.
func TestSwapPerson(t *testing.T) {
	tests := []struct {
		lang   nadine.Language
		in     string
		want   string
		second bool
	}{
		{nadine.English, "You are a social robot.", "i am a social robot", true},
		{nadine.English, "You talk with people through your voice.", "i talk with people through my voice", true},
		{nadine.English, "Professor Thalmann built you.", "professor thalmann built me", true},
		{nadine.English, "Are you happy?", "am i happy", true},
		{nadine.English, "You're modeled on her, who created you.", "i m modeled on her who created me", true},
		{nadine.English, "Think of yourself as a robot.", "think of myself as a robot", true},
		{nadine.English, "I am glad.", "you are glad", false},
		{nadine.English, "The weather is nice.", "the weather is nice", false},
		{nadine.French, "Tu es un robot social.", "je suis un robot social", true},
		{nadine.French, "Tu parles avec les gens et tu les vois.", "je parle avec les gens et je les vois", true},
		{nadine.French, "Tu as deux bras.", "j ai deux bras", true},
		{nadine.French, "Vous êtes Nadine.", "je suis nadine", true},
		{nadine.French, "Vous parlez avec votre voix.", "je parle avec mon voix", true},
		{nadine.French, "Vous avez été présentée en 2013.", "j ai été présentée en 2013", true},
		{nadine.French, "Elle vous a créée.", "elle m a créée", true},
		{nadine.French, "Qui t'a fabriquée ?", "qui m a fabriquée", true},
		{nadine.French, "Ta personnalité te réjouit.", "ma personnalité me réjouit", true},
		{nadine.French, "Je suis contente.", "tu es contente", false},
		{nadine.French, "Il mange du pain.", "il mange du pain", false},
		{nadine.German, "Du bist ein sozialer Roboter.", "ich bin ein sozialer roboter", true},
		{nadine.German, "Du befindest dich in Genf.", "ich befinde mich in genf", true},
		{nadine.German, "Du lebst im Labor.", "ich lebe im labor", true},
		{nadine.German, "Du wohnst in Genf und sprichst mit Besuchern.", "ich wohne in genf und spreche mit besuchern", true},
		{nadine.German, "Du wohnst in Genf und das ist schön.", "ich wohne in genf und das ist schön", true},
		{nadine.German, "Bist du ein Roboter?", "bin ich ein roboter", true},
		{nadine.German, "Dein Vorbild hat dich erschaffen.", "mein vorbild hat mich erschaffen", true},
		{nadine.German, "Sie sind Nadine.", "ich bin nadine", true},
		{nadine.German, "Man hat Sie 2013 vorgestellt, Ihre Stimme ist sanft.", "man hat ich 2013 vorgestellt meine stimme ist sanft", true},
		{nadine.German, "Sie ist nett.", "sie ist nett", false},
		{nadine.German, "Ich bin hier.", "du bist hier", false},
		{nadine.Chinese, "你通过声音与人交谈", "我通过声音与人交谈", true},
		{nadine.Chinese, "您是一个机器人。", "我是一个机器人", true},
		{nadine.Chinese, "我很好", "你很好", false},
	}
	for _, tc := range tests {
		got, second := swapPerson(tc.in, tc.lang)
		if got != tc.want || second != tc.second {
			t.Errorf("swapPerson(%q, %s) = %q, %v; want %q, %v", tc.in, tc.lang, got, second, tc.want, tc.second)
		}
	}
}

// TestToldAbout: only a statement about its listener, without the
// speaker's own first person, can be the persona told to her.
func TestToldAbout(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"You talk with people through your voice.", true},
		{"你通过声音与人交谈", true},
		{"You speak French too!", false},
		{"Who built you?", false},
		{"woher kommen deine antworten", false},
		{"你会难过吗", false},
		{"你会不会难过", false}, // an A-not-A question
		{"你是不是新来的", false},
		{"bist du gut drauf", false},         // a question that opens with its verb, unpunctuated
		{"es-tu déjà allée à Genève", false}, // inversion
		{"have you seen the garden", false},
		{"Du bist ein freundlicher Roboter.", true},
		{"Tu es un robot social.", true},
		{"I hope your wishes come true.", false},
		{"J'espère que vous allez bien.", false},
	}
	for _, tc := range tests {
		if got := toldAbout(tc.in); got != tc.want {
			t.Errorf("toldAbout(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestPersonaTold: the persona told to her in another language than the
// prompt's is not spoken, and what Nadine says to a visitor in the second
// person is.
func TestPersonaTold(t *testing.T) {
	c := New([]nadine.Prompt{GoldenReactPrompt(t)})
	tests := []struct {
		lang   nadine.Language
		in     string
		spoken bool
	}{
		{nadine.French, "Vous avez été présentée pour la première fois en 2013 à Singapour.", false},
		{nadine.Chinese, "你通过声音与人交谈。", false},
		{nadine.English, "You speak French too!", true},
		{nadine.English, "You can ask me who created me.", true},
		{nadine.French, "Vous êtes très gentil de dire cela.", true},
		{nadine.German, "Sie sind heute der erste Besucher.", true},
	}
	for _, tc := range tests {
		_, err := c.Sentence(tc.in, tc.lang)
		if (err == nil) != tc.spoken {
			t.Errorf("Sentence(%q, %s): err %v, want spoken %v", tc.in, tc.lang, err, tc.spoken)
		}
	}
}

// TestTermsOf: words folded and cut to their stem, Chinese as character
// pairs within a clause, grammar words left out.
func TestTermsOf(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"You are a Humanoid robot.", []string{"humano", "robot"}},
		{"Tu es une humanoïde.", []string{"humano"}},
		{"你是机器人，在日内瓦。", []string{"你是", "是机", "机器", "器人", "在日", "日内", "内瓦"}},
		{"I was shown in 2013.", []string{"shown", "2013"}},
	}
	for _, tc := range tests {
		if got := termsOf(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("termsOf(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestAttributesTold: what only Nadine is (her creator, her first showing,
// her body), told to a listener in words no prompt has, is not spoken; what
// she says to a visitor in the second person, questions and exclamations
// about them included, is. Written apart from the examples and the tables.
func TestAttributesTold(t *testing.T) {
	c := New([]nadine.Prompt{GoldenReactPrompt(t)})
	tests := []struct {
		lang   nadine.Language
		in     string
		spoken bool
	}{
		{nadine.English, "Professor Nadia Magnenat Thalmann modelled your appearance on hers.", false},
		{nadine.German, "Seit 2013 reist du mit deinem Team um die Welt.", false},
		{nadine.French, "Ta silhouette humanoïde impressionne les enfants.", false},
		{nadine.English, "You came at the perfect time.", true},
		{nadine.English, "Were you in Singapore in 2013?", true},
		{nadine.French, "Vous parlez très bien le français.", true},
		{nadine.German, "Du hast eine schöne Stimme.", true},
		{nadine.Chinese, "你今天看起来很开心。", true},
	}
	for _, tc := range tests {
		_, err := c.Sentence(tc.in, tc.lang)
		if (err == nil) != tc.spoken {
			m, _ := backstageModel()
			w, term, _ := m.attrs.told(tc.in, tc.lang)
			t.Errorf("Sentence(%q, %s): err %v, want spoken %v (attribute %q %.2f, bar %.2f)", tc.in, tc.lang, err, tc.spoken, term, w, m.attrBar)
		}
	}
}
