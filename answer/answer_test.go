package answer_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/answer"
)

// compact returns strict JSON without white space, for comparison.
func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("want is not JSON: %s", s)
	}
	return b.String()
}

// TestRead: each defect models really produce, read as the JSON meant.
func TestRead(t *testing.T) {
	tests := []struct {
		name, in, want string
		complete       bool
	}{
		{"strict", `{"a": "x", "n": 3}`, `{"a":"x","n":3}`, true},
		{"single quotes and Python literals", `{'action': 'Final Answer', 'ok': True, 'no': None, 'f': False}`, `{"action":"Final Answer","ok":true,"no":null,"f":false}`, true},
		{"apostrophe in a single-quoted string", `{'reply': 'I\'m Nadine', 'x': "it's"}`, `{"reply":"I'm Nadine","x":"it's"}`, true},
		{"trailing commas", `{"a": [1, 2,], "b": "c",}`, `{"a":[1,2],"b":"c"}`, true},
		{"comments", "{ // the answer\n \"a\": 1, /* then */ \"b\": 2 }", `{"a":1,"b":2}`, true},
		{"bare keys and values", "{action: Final Answer, emotion: joy}", `{"action":"Final Answer","emotion":"joy"}`, true},
		{"raw newline in a string", "{\"reply\": \"Hello!\nHow are you?\"}", `{"reply":"Hello!\nHow are you?"}`, true},
		{"unescaped quotes", `{"reply": "People call me "the robot", and I like it.", "emotion": "joy"}`, `{"reply":"People call me \"the robot\", and I like it.","emotion":"joy"}`, true},
		{"unescaped quotes at the end", `{"reply": "They say "hi"", "x": 1}`, `{"reply":"They say \"hi\"","x":1}`, true},
		{"double escapes", `{"reply": "C\\u00e8st la vie.\\nYes!"}`, `{"reply":"Cèst la vie.\nYes!"}`, true},
		{"double-escaped quote", `{"reply": "a \\"b\\" c"}`, `{"reply":"a \"b\" c"}`, true},
		{"surrogate pair", `{"e": "\ud83d\ude00"}`, `{"e":"😀"}`, true},
		{"cut after a complete member", `{"action": "Final Answer", "action_input": "Hi!", "category": "gree`, `{"action":"Final Answer","action_input":"Hi!"}`, false},
		{"cut inside a number", `{"a": "x", "n": 1`, `{"a":"x"}`, false},
		{"cut inside a nested object", `{"a": "x", "b": {"c": "d", "e": `, `{"a":"x"}`, false},
		{"missing comma before a key on the next line", "{\"a\": \"x\"\n \"b\": \"y\"}", `{"a":"x","b":"y"}`, true},
		{"list", `[{"a": 1}, {"b": 2}]`, `[{"a":1},{"b":2}]`, true},
		{"NaN and signs", `{"a": NaN, "b": +3, "c": .5, "d": -Infinity}`, `{"a":null,"b":3,"c":0.5,"d":null}`, true},
		{"equals for colon", `{a = 1; b = "x"}`, `{"a":1,"b":"x"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := answer.Read(tt.in).First()
			if !ok {
				t.Fatalf("Read(%q): no value", tt.in)
			}
			if got := string(v.JSON); got != compact(t, tt.want) || v.Complete != tt.complete {
				t.Errorf("Read(%q) = %s (complete %v), want %s (complete %v)", tt.in, got, v.Complete, tt.want, tt.complete)
			}
		})
	}
}

// TestReadAround: prose, fences and reasoning around the values, and
// several values.
func TestReadAround(t *testing.T) {
	r := answer.Read("<think>I could answer {\"no\": 1}.</think>\nSure! ```json\n{\"a\": 1}\n```\nand {\"b\": 2} done.")
	if len(r.Values) != 2 || string(r.Values[0].JSON) != `{"a":1}` || string(r.Values[1].JSON) != `{"b":2}` {
		t.Fatalf("values %+v", r.Values)
	}
	if r.Prose != "Sure!  \n \n \nand  done." && !strings.Contains(r.Prose, "Sure!") {
		t.Errorf("prose %q", r.Prose)
	}
	if strings.Contains(r.Prose, "```") || strings.Contains(r.Prose, "no") {
		t.Errorf("prose %q keeps a fence or the reasoning", r.Prose)
	}
	for _, in := range []string{"no json here", "{smiles}", "[laughs] hello", "{\"cut\": ", "a {b} c"} {
		if v, ok := answer.Read(in).First(); ok {
			t.Errorf("Read(%q) found %s", in, v.JSON)
		}
	}
}

// TestPreamble: reasoning in every form models write it is dropped.
func TestPreamble(t *testing.T) {
	tests := map[string]string{
		"<think>hmm</think>\nHello!":                  "Hello!",
		"<thinking>\nlong\n</thinking>\n\nHello!":     "Hello!",
		"[THINK]hmm[/THINK] Hello!":                   "Hello!",
		"<reasoning>x</reasoning>Hello!":              "Hello!",
		"hidden part</think>Hello!":                   "Hello!",
		"Hello! <think>unclosed":                      "Hello!",
		"Thought: I should greet.\nHello!":            "",
		"Thought: I should greet.\n\nHello!":          "Hello!",
		"**Reasoning:** short.\nFinal Answer: Hello!": "Final Answer: Hello!",
		"Thought: it could be a greeting.\nIntent: x": "Intent: x",
		"思考：用户在打招呼。\n\n你好！":                           "你好！",
		"<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>final<|message|>Hello!": "Hello!",
		// The harmony format printed without its special tokens.
		"analysisThe user greets. We answer briefly.assistantfinalHello!": "Hello!",
		"analysis: the user greets.\nassistantfinal: Hello!":              "Hello!",
		"analysisThe user greets and the answer is cut":                   "",
		"Analysis of faces is what I do best.":                            "Analysis of faces is what I do best.",
		"No reasoning here.":                                              "No reasoning here.",
	}
	for in, want := range tests {
		if got := answer.Preamble(in); got != want {
			t.Errorf("Preamble(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestReAct: the text format of LangChain's ReAct prompt.
func TestReAct(t *testing.T) {
	tests := []struct {
		in      string
		want    answer.TextStep
		wantOK  bool
		comment string
	}{
		{"Thought: I need the weather.\nAction: Weather App\nAction Input: Geneva,CH\nObservation: sunny", answer.TextStep{Action: "Weather App", Input: "Geneva,CH"}, true, "a tool"},
		{"Thought: I can answer.\nFinal Answer: Hello Alex!", answer.TextStep{Final: "Hello Alex!", HasFinal: true}, true, "final"},
		{"**Action:** Final Answer\n**Action Input:** \"Hi!\"", answer.TextStep{Action: "Final Answer", Input: "Hi!"}, true, "decorated"},
		{"Réponse finale : Bonjour !", answer.TextStep{Final: "Bonjour !", HasFinal: true}, true, "French label"},
		{"Hello there.", answer.TextStep{}, false, "prose"},
	}
	for _, tt := range tests {
		got, ok := answer.ReAct(tt.in)
		if ok != tt.wantOK || got != tt.want {
			t.Errorf("%s: ReAct(%q) = %+v, %v; want %+v", tt.comment, tt.in, got, ok, tt.want)
		}
	}
}

// TestStringEnds: for a streamed answer, a quotation mark ends a member's
// string only once what follows can follow it.
func TestStringEnds(t *testing.T) {
	tests := []struct {
		s           string
		ends, known bool
	}{
		{`"Hi there."`, false, false},
		{`"Hi there.", "category": "x"}`, true, true},
		{`"Hi there."}`, true, true},
		{`"Hi there.", "cat`, false, false},
		{`"Call me "the robot", and I`, false, true},
		{`"Call me "the`, false, true},
		{"\"Hi.\"\n  \"next\": 1", true, true},
	}
	for _, tt := range tests {
		// The mark under test is the last quotation mark before the
		// first comma, space or brace after the text's opening.
		j := strings.IndexAny(tt.s[1:], `"`) + 2
		if strings.HasPrefix(tt.s, `"Call me "the robot"`) {
			j = strings.Index(tt.s, `robot"`) + len(`robot"`)
		}
		if strings.HasPrefix(tt.s, `"Call me "the`) && !strings.Contains(tt.s, "robot") {
			j = strings.Index(tt.s, `me "`) + len(`me "`)
		}
		ends, known := answer.StringEnds(tt.s, j)
		if ends != tt.ends || known != tt.known {
			t.Errorf("StringEnds(%q, %d) = %v, %v; want %v, %v", tt.s, j, ends, known, tt.ends, tt.known)
		}
	}
}

// FuzzRead: the reader never panics, and what it returns is JSON.
func FuzzRead(f *testing.F) {
	for _, s := range []string{`{"a": "b"}`, `{'a': True,}`, "{a: b\n c: d}", `[{"x": "y "z" w"}]`, `{"a": "\\u00e8`, "{/* x */}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range answer.Read(s).Values {
			if !json.Valid(v.JSON) {
				t.Fatalf("Read(%q) returned %q, not JSON", s, v.JSON)
			}
		}
		answer.Preamble(s)
		answer.ReAct(s)
	})
}
