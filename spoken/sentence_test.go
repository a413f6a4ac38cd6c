package spoken_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/nadine-robot/nadine/spoken"
)

// splitCases are texts and their sentences, read whole or streamed.
var splitCases = []struct {
	name string
	in   string
	want []string
}{
	{"two", "Hello Alex. How are you today?", []string{"Hello Alex.", "How are you today?"}},
	{"abbreviation", "I was built by Prof. Thalmann. She is great!", []string{"I was built by Prof. Thalmann.", "She is great!"}},
	{"number", "It is 3.5 degrees. Brr.", []string{"It is 3.5 degrees.", "Brr."}},
	{"chinese", "你好。我是娜丁！你呢？", []string{"你好。", "我是娜丁！", "你呢？"}},
	{"unterminated", "Bonjour Madame", []string{"Bonjour Madame"}},
	{"empty", "   ", nil},
	{"initials", "My favourite author is J. R. R. Tolkien. He wrote a lot.", []string{"My favourite author is J. R. R. Tolkien.", "He wrote a lot."}},
	{"abbreviation in two", "Das ist z. B. ein Arm. Toll!", []string{"Das ist z. B. ein Arm.", "Toll!"}},
	{"postscript", "P.S. This is new. Bye!", []string{"P.S.", "This is new.", "Bye!"}},
	{"spaced dot", "Look at nadine . robot for news. Bye!", []string{"Look at nadine . robot for news.", "Bye!"}},
	{"address over a line", "See https://miralab.\nch/photos now. Bye!", []string{"See https://miralab.\nch/photos now.", "Bye!"}},
	{"address ends a sentence", "See https://miralab.ch. Bye!", []string{"See https://miralab.ch.", "Bye!"}},
	{"a hesitation", "Hmm… laissez-moi réfléchir. Je crois.", []string{"Hmm… laissez-moi réfléchir.", "Je crois."}},
	{"a sentence trailing off", "Je m'appelle Nadine et j'ai treize ans... enfin, presque.", []string{"Je m'appelle Nadine et j'ai treize ans...", "enfin, presque."}},
	{"a list numbered 1. 1.", "1. Je me souviens de vous.\n1. Ça me fait plaisir !", []string{"1. Je me souviens de vous.", "1. Ça me fait plaisir !"}},
	{"a German date mid-sentence", "Es ist Freitag, der 4. Dezember 2026. Haben Sie noch etwas vor?", []string{"Es ist Freitag, der 4. Dezember 2026.", "Haben Sie noch etwas vor?"}},
	{"a number ends a sentence", "Ich bin 12. Und Sie?", []string{"Ich bin 12.", "Und Sie?"}},
	{"a number before a last word no ordinal counts", "Es sind 15. Mehr nicht", []string{"Es sind 15.", "Mehr nicht"}},
	{"a number before a word a stream may cut", "Ja, 5 x 3 = 15. Vous êtes doué !", []string{"Ja, 5 x 3 = 15.", "Vous êtes doué !"}},
	{"an initial after an ideograph", "我是由N. Magnenat Thalmann教授创造的。现在我在日内瓦。", []string{"我是由N. Magnenat Thalmann教授创造的。", "现在我在日内瓦。"}},
	{"a word after an ideograph", "我喜欢MIRALab. 你呢？", []string{"我喜欢MIRALab.", "你呢？"}},
}

func TestSplitSentences(t *testing.T) {
	for _, tt := range splitCases {
		t.Run(tt.name, func(t *testing.T) {
			if got := spoken.SplitSentences(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("SplitSentences(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestSplitterAgreesWhateverThePieces: streamed in pieces of any size, a
// text gives the sentences it gives read whole (a model streams a few
// characters at a time, cut anywhere).
func TestSplitterAgreesWhateverThePieces(t *testing.T) {
	for _, tt := range splitCases {
		for n := 1; n <= 12; n++ {
			var s spoken.SentenceSplitter
			var got []string
			for i := 0; i < len(tt.in); i += n {
				got = append(got, s.Write(tt.in[i:min(i+n, len(tt.in))])...)
			}
			if last := s.Flush(); last != "" {
				got = append(got, last)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s in pieces of %d bytes: %q, want %q", tt.name, n, got, tt.want)
			}
		}
	}
}

func TestSentenceSplitterStreams(t *testing.T) {
	var s spoken.SentenceSplitter
	var got []string
	for _, d := range []string{"Hel", "lo Alex", ". How", " are", " you?", " Fine"} {
		got = append(got, s.Write(d)...)
		if d == ". How" && len(got) != 1 {
			t.Fatalf("first sentence not emitted as soon as complete: %q", got)
		}
	}
	got = append(got, s.Flush())
	want := []string{"Hello Alex.", "How are you?", "Fine"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestUnsaid(t *testing.T) {
	for _, tt := range []struct {
		text string
		said []string
		want []string
	}{
		{"Hello! Nice to see you.", nil, []string{"Hello!", "Nice to see you."}},
		{"Hello! Nice to see you.", []string{"Hello!"}, []string{"Nice to see you."}},
		{"Hello! Nice to see you.", []string{"Hello!", "Nice to see you."}, nil},
		{"", []string{"Hello!"}, nil},
		// A piece said held two of the reply's sentences.
		{"Voici le plan : entrée. Le café est au fond.", []string{"Voici le plan : entrée. 2."}, []string{"Le café est au fond."}},
	} {
		if got := spoken.Unsaid(tt.text, tt.said); !slices.Equal(got, tt.want) {
			t.Errorf("Unsaid(%q, %q) = %q, want %q", tt.text, tt.said, got, tt.want)
		}
	}
}

// TestSplitKeepsQuotesAndAsides: a quotation's closing marks and an aside's
// own full stops belong to the sentence around them, in four languages.
func TestSplitKeepsQuotesAndAsides(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"On me demande souvent « qui êtes-vous au juste ? », et je réponds : une amie.", []string{"On me demande souvent « qui êtes-vous au juste ? », et je réponds : une amie."}},
		{"Vous m'avez demandé : « Parlez-moi de vous. » Eh bien, je suis Nadine.", []string{"Vous m'avez demandé : « Parlez-moi de vous. »", "Eh bien, je suis Nadine."}},
		{"Deine Frage lautete: „Erzähl mir von dir.“ Also, ich bin Nadine.", []string{"Deine Frage lautete: „Erzähl mir von dir.“", "Also, ich bin Nadine."}},
		{"I said so. “Really?” she asked.", []string{"I said so.", "“Really?” she asked."}},
		{"He said \"Hi.\" Then he left.", []string{"He said \"Hi.\"", "Then he left."}},
		{"She asked \"Why?\" and I smiled.", []string{"She asked \"Why?\" and I smiled."}},
		{"你问我：“介绍一下你自己。”好的，我是Nadine。", []string{"你问我：“介绍一下你自己。”", "好的，我是Nadine。"}},
		{"Ich bin Nadine (max. zwei Sätze) und lebe in Genf. Schön!", []string{"Ich bin Nadine (max. zwei Sätze) und lebe in Genf.", "Schön!"}},
		{"我是Nadine。（注：两句话以内。）很高兴认识你！", []string{"我是Nadine。", "（注：两句话以内。）", "很高兴认识你！"}},
		{"Heute ist der 3. Dezember. Schön!", []string{"Heute ist der 3. Dezember.", "Schön!"}},
		{"Ich bin zum 2. Mal hier. Toll!", []string{"Ich bin zum 2. Mal hier.", "Toll!"}},
		{"I'm sad :( But it's fine. Bye!", []string{"I'm sad :( But it's fine.", "Bye!"}},
	} {
		if got := spoken.SplitSentences(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitSentences(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSplitterWaitsForClosers: a sentence's end followed by nothing yet
// waits for the next piece, which may close a quotation.
func TestSplitterWaitsForClosers(t *testing.T) {
	var s spoken.SentenceSplitter
	var got []string
	for _, d := range []string{"你问我：“介绍一下你自己。", "”好的。", "我是Nadine。"} {
		got = append(got, s.Write(d)...)
	}
	got = append(got, s.Flush())
	want := []string{"你问我：“介绍一下你自己。”", "好的。", "我是Nadine。"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
