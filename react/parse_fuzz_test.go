package react

import (
	"testing"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/spoken"
)

// reactSeeds are answers as real models write them.
var reactSeeds = []string{
	"```json\n{\"action\": \"Final Answer\", \"emotion\": \"joy\", \"emotion_intensity\": 7, \"action_input\": \"Hello! How nice to see you.\", \"category\": \"greeting\", \"causing_person\": \"human\"}\n```",
	`{"action": "Final Answer", "category": "greeting", "causing_person": "Sarah", "emotion": "joy", "emotion_intensity": 6, "action_input": "Nice to meet you, Sarah!"}`,
	`{"action": "final_answer", "emotion": "Happy", "emotion_intensity": "11", "action_input": "Hi. There.", "category": "Greetings", "causing_person": "the user"}`,
	`{"action": "Weather App", "action_input": {"city": "London", "country": "GB"}}`,
	`[{"action": "Google Search", "action_input": "capital of Peru"}, {"action": "Final Answer", "action_input": "Lima."}]`,
	"<think>The user greets me.</think>\nSure! ```json\n{\"action\": \"Final Answer\", \"emotion\": \"surprise\", \"emotion_intensity\": 0.4, \"action_input\": \"Oh, hello!\"}\n```",
	"{'action': 'Final Answer', 'emotion': 'joy', 'emotion_intensity': 5, 'action_input': 'See you soon!'}",
	"Thought: The person says goodbye.\nFinal Answer: Goodbye, have a lovely evening!",
	"Thought: I need the weather.\nAction: Weather App\nAction Input: Geneva,CH",
	`{"name": "Google News", "arguments": {"query": "CERN"}}`,
	`{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 6, "action_input": "{\"reply\": \"Hello Alex, welcome back!\"}"}`,
	"I feel great today, thank you for asking!",
	"<|im_start|>assistant\n<|im_end|>",
	`{"action": "Final Answer", "emot`,
	"",
}

// FuzzParseStep: whatever the model writes, the parser does not panic, and
// what it accepts keeps the output contract: a known action; a final
// answer with a spoken reply, a valid emotion, an intensity from 0 to 10,
// a valid category and a causing person.
func FuzzParseStep(f *testing.F) {
	for _, s := range reactSeeds {
		f.Add(s, "Alex")
		f.Add(s, nadine.UnknownUser)
	}
	f.Fuzz(func(t *testing.T, answer, user string) {
		p := testParser(user)
		s, _, err := p.parse(answer)
		if err != nil {
			if pe, ok := err.(*parseError); ok && pe.kind == prose {
				if _, _, serr := spoken.Reply(pe.text); serr != nil {
					t.Fatalf("prose %q is not speech: %v", pe.text, serr)
				}
			}
			return
		}
		if !s.final() {
			found := false
			for _, tool := range testTools {
				found = found || tool == s.Action
			}
			if !found {
				t.Fatalf("unknown action %q accepted", s.Action)
			}
			return
		}
		if s.Input == "" || !utf8.ValidString(s.Input) || !s.Emotion.Valid() || s.Intensity < 0 || s.Intensity > 10 || !s.Category.Valid() || s.CausingPerson == "" {
			t.Fatalf("final answer breaks the contract: %+v", s)
		}
		if _, _, err := spoken.Reply(s.Input); err != nil {
			t.Fatalf("reply %q is not speech: %v", s.Input, err)
		}
	})
}

// FuzzStreamedAndParsedAgree: an answer streamed in pieces and the same
// answer parsed whole give the same step (the rules do not depend on key
// order or on where the pieces break), and what is spoken is speech.
func FuzzStreamedAndParsedAgree(f *testing.F) {
	for _, s := range reactSeeds {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, answer string, chunk uint8) {
		n := int(chunk%16) + 1
		p := testParser("Alex")
		parsed, _, perr := p.parse(answer)
		st := &streamer{p: p, onSent: func(s string) {
			if _, err := spoken.Sentence(s); err != nil {
				t.Fatalf("spoke %q: %v", s, err)
			}
		}}
		for i := 0; i < len(answer); i += n {
			st.write(answer[i:min(i+n, len(answer))])
		}
		st.flush()
		if !st.spoke() {
			return // parsed at the end: the same parse
		}
		streamed := st.finish(nil)
		if perr != nil {
			// The stream spoke a reply the whole answer has no usable
			// form of: only possible when the JSON was cut or broken
			// after the reply, or the rest of the text is not speech.
			return
		}
		if streamed.Emotion != parsed.Emotion || streamed.Intensity != parsed.Intensity ||
			streamed.Category != parsed.Category || streamed.CausingPerson != parsed.CausingPerson {
			t.Fatalf("streamed %+v, parsed %+v", streamed, parsed)
		}
	})
}
