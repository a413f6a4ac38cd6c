package spoken_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/spoken"
)

// speechSeeds are replies as models write them, good and bad.
var speechSeeds = []string{
	"Hello Alex! How are you today?",
	`Nadine: "Bonjour ! Je suis ravie de vous voir." 😊`,
	"**Hello!** I am *so* glad you came.\n- talk with you\n- sing a song",
	"<think>They greet me.</think>Hello there. Welcome to MIRALab.",
	`{"response": "Hello there! How are you?"}`,
	"```python\nprint('hello')\n```",
	"<|im_start|>assistant\nHello<|im_end|>",
	"<html><body><h1>502 Bad Gateway</h1></body></html>",
	"RULES\n- Answer in the first person, as Nadine.\n- Keep your answer to at most two short sentences: it will be spoken aloud.",
	"See [the lab](https://miralab.ch) or www.example.com for more.",
	"「你好！」我是娜丁。",
	"« Il fait beau à Genève aujourd'hui. »",
	"*smiles warmly* (laughs) Hello!",
	"| city | temp |\n|---|---|\n| Geneva | 12 |",
}

var speechInstructions = spoken.NewInstructions("RULES\n- Answer in the first person, as Nadine.\n- Keep your answer to at most two short sentences: it will be spoken aloud.\nHUMAN'S INPUT\n")

// FuzzSpeech: cleaning never panics, keeps valid UTF-8 and is stable
// (cleaning clean text changes nothing); what Speech accepts is within the
// length rules and made of sentences that are speech themselves.
func FuzzSpeech(f *testing.F) {
	for _, s := range speechSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		clean := spoken.Clean(text)
		if !utf8.ValidString(clean) {
			t.Fatalf("Clean(%q) = %q: invalid UTF-8", text, clean)
		}
		if again := spoken.Clean(clean); again != clean {
			t.Fatalf("Clean is not stable: %q → %q → %q", text, clean, again)
		}
		said, _, err := speechInstructions.Speech(text)
		if err != nil {
			if nadine.ErrorCode(err) != nadine.EBADOUTPUT {
				t.Fatalf("Speech error without EBADOUTPUT: %v", err)
			}
			return
		}
		if said == "" || utf8.RuneCountInString(said) > spoken.MaxRunes {
			t.Fatalf("Speech(%q) = %q", text, said)
		}
		for _, sent := range spoken.SplitSentences(said) {
			if _, err := speechInstructions.Sentence(sent); err != nil {
				t.Fatalf("Speech(%q) kept %q: %v", text, sent, err)
			}
		}
	})
}

// FuzzSpeechStream: a reply streamed in pieces of any size yields only
// sentences that are speech, within the length rules, and nothing of a
// reasoning block.
func FuzzSpeechStream(f *testing.F) {
	for _, s := range speechSeeds {
		f.Add(s, uint8(2))
	}
	f.Fuzz(func(t *testing.T, text string, chunk uint8) {
		n := int(chunk%12) + 1
		s := spoken.Stream{Instructions: speechInstructions}
		var out []string
		for i := 0; i < len(text); i += n {
			out = append(out, s.Write(text[i:min(i+n, len(text))])...)
		}
		out = append(out, s.Flush()...)
		total := 0
		for _, sent := range out {
			if sent == "" {
				t.Fatalf("empty sentence from %q", text)
			}
			if _, err := speechInstructions.Sentence(sent); err != nil {
				t.Fatalf("streamed %q from %q: %v", sent, text, err)
			}
			if strings.Contains(strings.ToLower(sent), "<think>") {
				t.Fatalf("streamed a reasoning tag: %q", sent)
			}
			total += utf8.RuneCountInString(sent)
		}
		if total > spoken.MaxRunes {
			t.Fatalf("streamed %d characters", total)
		}
	})
}
