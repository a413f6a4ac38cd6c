package react

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/speakable"
)

var testTools = []string{"Weather App", "Nadine behaviour", "Google Search"}

func testParser(user string) parser {
	return parser{user: user, tools: testTools, lang: nadine.English, check: speakable.New([]nadine.Prompt{{Instructions: []string{
		"RULES\n- Keep your answer to at most two short sentences: it will be spoken aloud.\nRESPONSE FORMAT INSTRUCTIONS\nAnswer with exactly one JSON code block, in one of these two formats."}}})}
}

func TestParseStep(t *testing.T) {
	final := `{"action": "Final Answer", "category": "greeting", "emotion": "joy", "emotion_intensity": 6, "causing_person": "Alex", "action_input": "Hello Alex!"}`
	hello := step{Action: finalAction, Input: "Hello Alex!", Category: nadine.CategoryGreeting, Emotion: nadine.Joy, Intensity: 6, CausingPerson: "Alex"}
	with := func(f func(*step)) step { s := hello; f(&s); return s }
	tests := []struct {
		name     string
		in       string
		want     step
		wantErr  string
		wantKind parseKind
		wantNote string
	}{
		{name: "fenced final", in: "Sure.\n```json\n" + final + "\n```", want: hello},
		{name: "bare final", in: final, want: hello},
		{name: "prompt order", in: `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 6, "action_input": "Hello Alex!", "category": "greeting", "causing_person": "Alex"}`, want: hello},
		{name: "any order", in: `{"causing_person": "alex", "action_input": "Hello Alex!", "category": "Greeting", "emotion_intensity": 6, "emotion": "JOY", "action": "final answer"}`, want: hello, wantNote: `emotion "JOY" read as joy`},
		{name: "other spellings", in: `{"Action": "final_answer", "actionInput": "Hello Alex!", "Emotion": "happy", "intensity": "6", "Category": "greetings", "causedBy": "Alex"}`, want: hello, wantNote: `action "final_answer" read as "Final Answer"`},
		{name: "think block and prose", in: "<think>Alex greets me; {not json}.</think>\nHere is my answer:\n```json\n" + final + "\n```\nHope that helps!", want: hello},
		{name: "python dict", in: `{'action': 'Final Answer', 'emotion': 'joy', 'emotion_intensity': 6, 'action_input': 'Hello Alex!', 'category': 'greeting', 'causing_person': 'Alex'}`, want: hello},
		{name: "trailing comma", in: `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 6, "action_input": "Hello Alex!", "category": "greeting", "causing_person": "Alex",}`, want: hello},
		{name: "missing category", in: `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 6, "action_input": "Hi", "causing_person": "Alex"}`,
			want: step{Action: finalAction, Input: "Hi", Emotion: nadine.Joy, Intensity: 6, Category: nadine.CategoryOther, CausingPerson: "Alex"}, wantNote: `no "category": other`},
		{name: "missing causing person", in: `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 6, "action_input": "Hi", "category": "other"}`,
			want: step{Action: finalAction, Input: "Hi", Emotion: nadine.Joy, Intensity: 6, Category: nadine.CategoryOther, CausingPerson: "Alex"}, wantNote: `no "causing_person"`},
		{name: "tool call", in: "```json\n{\"action\": \"weather app\", \"action_input\": \"Geneva,CH\"}\n```", want: step{Action: "Weather App", Input: "Geneva,CH"}},
		{name: "tool by a near name", in: `{"action": "weather", "action_input": "Geneva,CH"}`, want: step{Action: "Weather App", Input: "Geneva,CH"}, wantNote: `read as the tool "Weather App"`},
		{name: "list takes first", in: `[{"action": "Nadine behaviour", "action_input": "smile"}, {"action": "Weather App", "action_input": ""}]`, want: step{Action: "Nadine behaviour", Input: "smile"}},
		{name: "object input", in: `{"action": "Weather App", "action_input": {"city": "Bern"}}`, want: step{Action: "Weather App", Input: "Bern"}, wantNote: `read as "Bern"`},
		{name: "place object", in: `{"action": "Weather App", "action_input": {"city": "London", "country": "GB"}}`, want: step{Action: "Weather App", Input: "London,GB"}},
		{name: "function call shape", in: `{"name": "Google Search", "arguments": {"query": "news about CERN"}}`, want: step{Action: "Google Search", Input: "news about CERN"}},
		{name: "object reply", in: `{"action": "Final Answer", "action_input": {"reply": "Hello Alex!", "emotion": "joy", "emotion_intensity": 6, "category": "greeting", "causing_person": "Alex"}}`, want: hello, wantNote: "its text was taken"},
		{name: "object reply beside its source", in: `{"action": "Final Answer", "action_input": {"réponse": "Hello Alex!", "source": "https://www.unige.ch"}, "emotion": "joy", "emotion_intensity": 6, "category": "greeting", "causing_person": "Alex"}`, want: hello, wantNote: "its text was taken"},
		{name: "object reply after its reasoning", in: `{"action": "Final Answer", "action_input": {"reasoning": "Two sentences at most.", "antwort": "Hello Alex!"}, "emotion": "joy", "emotion_intensity": 6, "category": "greeting", "causing_person": "Alex"}`, want: hello},
		{name: "reply named in another language", in: `{"antwort": "Hello Alex!", "emotion": "joy", "emotion_intensity": 6, "category": "greeting", "causing_person": "Alex"}`, want: hello, wantNote: "read as the final answer"},
		{name: "final answer as a key", in: `{"Final Answer": "Hello Alex!", "emotion": "joy", "emotion_intensity": 6, "category": "greeting", "causing_person": "Alex"}`, want: hello},
		{name: "reply wrapped in quotes and a prefix", in: `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 6, "action_input": "Nadine: \"Hello Alex!\" 😊", "category": "greeting", "causing_person": "Alex"}`, want: hello},
		{name: "string intensity", in: strings.Replace(final, `6`, `"7"`, 1), want: with(func(s *step) { s.Intensity = 7 })},
		{name: "float intensity", in: strings.Replace(final, `6`, `6.6`, 1), want: with(func(s *step) { s.Intensity = 7 })},
		{name: "intensity above range", in: strings.Replace(final, `6`, `11`, 1), want: with(func(s *step) { s.Intensity = 10 }), wantNote: "read as 10"},
		{name: "compliment spelling", in: strings.Replace(final, `greeting`, `compliment`, 1), want: with(func(s *step) { s.Category = nadine.CategoryComplement })},
		{name: "question category", in: strings.Replace(final, `greeting`, `question`, 1), want: with(func(s *step) { s.Category = nadine.CategoryInformation })},
		{name: "unknown category", in: strings.Replace(final, `greeting`, `banter`, 1), want: with(func(s *step) { s.Category = nadine.CategoryOther }), wantNote: `category "banter" unknown`},
		{name: "emotion synonym", in: strings.Replace(final, `"joy"`, `"happiness"`, 1), want: hello},
		{name: "neutral emotion", in: strings.Replace(final, `"joy"`, `"neutral"`, 1), want: with(func(s *step) { s.Emotion = nadine.Neutral })},
		{name: "unknown emotion", in: strings.Replace(final, `"joy"`, `"purple"`, 1), want: with(func(s *step) { s.Emotion = nadine.Neutral }), wantNote: `emotion "purple" unknown`},
		{name: "missing emotion", in: `{"action": "Final Answer", "category": "other", "emotion_intensity": 1, "causing_person": "human", "action_input": "Hi"}`,
			want: step{Action: finalAction, Input: "Hi", Category: nadine.CategoryOther, Emotion: nadine.Neutral, Intensity: 1, CausingPerson: nadine.CausedByHuman}, wantNote: `no "emotion"`},
		{name: "another person", in: strings.Replace(final, `"Alex"`, `"Bob"`, 1), want: with(func(s *step) { s.CausingPerson = "Bob" })},
		{name: "no JSON at all", in: "Hello there!", wantErr: "no JSON object", wantKind: prose},
		{name: "ReAct text format", in: "Thought: Alex greets me.\nFinal Answer: Hello Alex!",
			want: step{Action: finalAction, Input: "Hello Alex!", Category: nadine.CategoryOther, Emotion: nadine.Neutral, CausingPerson: "Alex"}, wantNote: "text format"},
		{name: "ReAct text tool call", in: "Thought: I need the weather.\nAction: Weather App\nAction Input: Geneva,CH", want: step{Action: "Weather App", Input: "Geneva,CH"}},
		{name: "broken json", in: "```json\n{\"action\": \"Final Answer\", \n```", wantErr: "not a reply", wantKind: junk},
		{name: "markup", in: "<|im_start|>assistant\n<|im_end|>", wantErr: "not a reply", wantKind: junk},
		{name: "json reply", in: `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 5, "action_input": "[{\"role\": \"assistant\"}, {\"x\": 1}]"}`, wantErr: "not plain spoken text", wantKind: junk},
		{name: "echo reply", in: `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 5, "action_input": "Keep your answer to at most two short sentences: it will be spoken aloud."}`, wantErr: "echo", wantKind: junk},
		{name: "not an object", in: `"Hello"`, wantErr: "no JSON", wantKind: prose},
		{name: "unknown tool", in: `{"action": "Launch Rocket", "action_input": "now"}`, wantErr: `unknown action "Launch Rocket"`},
		{name: "empty reply", in: strings.Replace(final, `Hello Alex!`, ` `, 1), wantErr: `must hold your reply`},
		{name: "empty list", in: `[]`, wantErr: "empty list"},
		{name: "nothing usable", in: `{"thought": "hmm"}`, wantErr: `missing "action"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, notes, err := testParser("Alex").parse(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || kindOf(err) != tt.wantKind {
					t.Fatalf("err = %v (kind %d), want it to contain %q (kind %d)", err, kindOf(err), tt.wantErr, tt.wantKind)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			if tt.wantNote != "" && !strings.Contains(strings.Join(notes, "|"), tt.wantNote) {
				t.Errorf("notes = %q, want one containing %q", notes, tt.wantNote)
			}
		})
	}
}

// TestCausingPersonWithoutAKnownUser is the case: the person who
// just introduced themselves is named while the session user is unknown.
func TestCausingPersonWithoutAKnownUser(t *testing.T) {
	p := testParser(nadine.UnknownUser)
	for in, want := range map[string]string{"Sarah": "Sarah", "unknown": nadine.CausedByHuman, "the user": nadine.CausedByHuman, "SELF": nadine.CausedBySelf} {
		s, _, err := p.parse(`{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 6, "action_input": "Nice to meet you, Sarah!", "category": "greeting", "causing_person": "` + in + `"}`)
		if err != nil || s.CausingPerson != want {
			t.Errorf("causing_person %q: got %q, %v; want %q", in, s.CausingPerson, err, want)
		}
	}
}

// TestStreamedAndParsedAgree streams every answer two bytes at a time and
// parses it whole: the step (and whether it is usable) must be the same,
// whatever the order of its keys.
func TestStreamedAndParsedAgree(t *testing.T) {
	answers := []string{
		`{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 6, "action_input": "Hello Sarah. Nice to meet you!", "category": "greeting", "causing_person": "Sarah"}`,
		`{"action": "Final Answer", "category": "greeting", "causing_person": "Sarah", "emotion": "joy", "emotion_intensity": 6, "action_input": "Hello Sarah. Nice to meet you!"}`,
		`{"causing_person": "Sarah", "category": "greeting", "action_input": "Hello Sarah. Nice to meet you!", "emotion_intensity": 6, "emotion": "joy", "action": "Final Answer"}`,
		`{"action": "final_answer", "emotion": "Happy", "emotion_intensity": "11", "action_input": "Hello Sarah. Nice to meet you!", "category": "Greetings", "causing_person": "the user"}`,
		`{"action": "Final Answer", "emotion": "neutral", "emotion_intensity": 0, "action_input": "Hello. What can I do for you?"}`,
		`{"action": "Final Answer", "emotion": "glee", "emotion_intensity": 5, "category": "question", "causing_person": "Bob", "action_input": "Hi. There."}`,
		`{"action": "Weather App", "action_input": {"city": "London", "country": "GB"}}`,
		"<think>They said hello.</think>\n```json\n" + `{"action": "Final Answer", "emotion": "surprise", "emotion_intensity": 0.4, "action_input": "Oh, hello! I did not see you.", "category": "greeting", "causing_person": "human"}` + "\n```",
	}
	for _, a := range answers {
		for _, user := range []string{"Alex", nadine.UnknownUser} {
			p := testParser(user)
			parsed, _, perr := p.parse(a)
			st := &streamer{p: p}
			for i := 0; i < len(a); i += 2 {
				st.write(a[i:min(i+2, len(a))])
			}
			var streamed step
			var serr error
			if st.spoke() {
				streamed = st.finish(nil)
			} else {
				streamed, _, serr = p.parse(st.buf.String())
			}
			if (perr == nil) != (serr == nil) || streamed != parsed {
				t.Errorf("user %s, answer %s:\nparsed   %+v, %v\nstreamed %+v, %v", user, a, parsed, perr, streamed, serr)
			}
		}
	}
}

func TestStreamerStreamsFinalAnswerSentences(t *testing.T) {
	answer := "```json\n" + `{"action": "Final Answer", "category": "information request", "emotion": "joy", "emotion_intensity": 5, "causing_person": "human", "action_input": "It is sunny in Geneva. It is 21 degrees \"today\" \u00e9t\u00e9. Enjoy!"}` + "\n```"
	var metas []step
	var sents []string
	s := &streamer{p: testParser("Alex"), onMeta: func(m step) { metas = append(metas, m) }, onSent: func(x string) { sents = append(sents, x) }}
	// Feed two bytes at a time, as a stream could.
	for i := 0; i < len(answer); i += 2 {
		s.write(answer[i:min(i+2, len(answer))])
		if strings.Contains(answer[:i], "Geneva. It") && len(sents) == 0 {
			t.Fatalf("first sentence not streamed before the rest arrived")
		}
	}
	s.flush()
	want := []string{"It is sunny in Geneva.", `It is 21 degrees "today" été.`, "Enjoy!"}
	if strings.Join(sents, "|") != strings.Join(want, "|") {
		t.Errorf("sentences = %q, want %q", sents, want)
	}
	if len(metas) != 1 || metas[0].Emotion != nadine.Joy || metas[0].Category != nadine.CategoryInformation {
		t.Errorf("metas = %+v", metas)
	}
}

// TestStreamerSpeaksBeforeCategory streams an answer in the prompt's order:
// the first sentence must be out before category and causing_person have
// arrived.
func TestStreamerSpeaksBeforeCategory(t *testing.T) {
	answer := "```json\n" + `{"action": "Final Answer", "emotion": "surprise", "emotion_intensity": 3, "action_input": "Oh, you are back. Welcome!", "category": "greeting", "causing_person": "Alex"}` + "\n```"
	var metas []step
	var sents []string
	var seenWhenSpoken string
	s := &streamer{p: testParser("Alex"), onMeta: func(m step) { metas = append(metas, m) }}
	s.onSent = func(x string) {
		if len(sents) == 0 {
			seenWhenSpoken = s.buf.String()
		}
		sents = append(sents, x)
	}
	for i := 0; i < len(answer); i += 3 {
		s.write(answer[i:min(i+3, len(answer))])
	}
	if len(sents) == 0 {
		t.Fatalf("nothing streamed")
	}
	if strings.Contains(seenWhenSpoken, "category") || strings.Contains(seenWhenSpoken, "causing_person") {
		t.Errorf("first sentence spoken only after %q", seenWhenSpoken)
	}
	if len(metas) != 1 || metas[0].Emotion != nadine.Surprise || metas[0].Intensity != 3 || metas[0].Category != "" {
		t.Errorf("metas = %+v", metas)
	}
	got := s.finish(nil)
	want := step{Action: finalAction, Input: "Oh, you are back. Welcome!", Category: nadine.CategoryGreeting, Emotion: nadine.Surprise, Intensity: 3, CausingPerson: "Alex"}
	if got != want {
		t.Errorf("finish = %+v, want %+v", got, want)
	}
}

// TestStreamerFinishReadsTheTail checks what happens to the fields after
// a reply that was already spoken: they are never retried, they are read
// by the parser's rules (defaults included) and the trace says what was
// normalized.
func TestStreamerFinishReadsTheTail(t *testing.T) {
	head := `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 4, "action_input": "Hello. Nice to see you."`
	tests := []struct {
		name      string
		answer    string
		want      step
		wantNotes []string
	}{
		{"valid", head + `, "category": "complement", "causing_person": "SELF"}`,
			step{Action: finalAction, Input: "Hello. Nice to see you.", Emotion: nadine.Joy, Intensity: 4, Category: nadine.CategoryComplement, CausingPerson: nadine.CausedBySelf}, nil},
		{"category synonym", head + `, "category": "question", "causing_person": "Alex"}`,
			step{Action: finalAction, Input: "Hello. Nice to see you.", Emotion: nadine.Joy, Intensity: 4, Category: nadine.CategoryInformation, CausingPerson: "Alex"},
			[]string{`category "question" read as information request`}},
		{"missing tail", head + `}`,
			step{Action: finalAction, Input: "Hello. Nice to see you.", Emotion: nadine.Joy, Intensity: 4, Category: nadine.CategoryOther, CausingPerson: "Alex"},
			[]string{`no "category"`, `no "causing_person"`}},
		{"another person", head + `, "category": "greeting", "causing_person": "Bob"}`,
			step{Action: finalAction, Input: "Hello. Nice to see you.", Emotion: nadine.Joy, Intensity: 4, Category: nadine.CategoryGreeting, CausingPerson: "Bob"}, nil},
		{"unusable causing person", head + `, "category": "greeting", "causing_person": "user #42"}`,
			step{Action: finalAction, Input: "Hello. Nice to see you.", Emotion: nadine.Joy, Intensity: 4, Category: nadine.CategoryGreeting, CausingPerson: "Alex"},
			[]string{`causing_person "user #42" unusable`}},
		{"json cut", head + `, "categ`,
			step{Action: finalAction, Input: "Hello. Nice to see you.", Emotion: nadine.Joy, Intensity: 4, Category: nadine.CategoryOther, CausingPerson: "Alex"},
			[]string{"did not close", `no "category"`, `no "causing_person"`}},
		{"old order kept", `{"action": "Final Answer", "category": "insult", "emotion": "anger", "emotion_intensity": 8, "causing_person": "Alex", "action_input": "That was rude.`,
			step{Action: finalAction, Input: "That was rude.", Emotion: nadine.Anger, Intensity: 8, Category: nadine.CategoryInsult, CausingPerson: "Alex"},
			[]string{"did not close"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &streamer{p: testParser("Alex")}
			s.write(tt.answer)
			s.flush()
			if !s.spoke() {
				t.Fatalf("not streamed")
			}
			tr := nadine.NewTrace("t", "", time.Now())
			got := s.finish(tr)
			if got != tt.want {
				t.Errorf("finish = %+v, want %+v", got, tt.want)
			}
			notes := tr.Snapshot().Notes
			if len(notes) != len(tt.wantNotes) {
				t.Fatalf("notes = %q, want %d notes", notes, len(tt.wantNotes))
			}
			for i, want := range tt.wantNotes {
				if !strings.Contains(notes[i], want) {
					t.Errorf("note %d = %q, want it to contain %q", i, notes[i], want)
				}
			}
		})
	}
}

// TestStreamerStreamsOnceFinal: tool calls are never streamed, nor an
// answer whose action is not known to be final before the text, nor a
// reply that is not a string; such answers are parsed at the end by the
// same rules. A final answer streams whether its emotion comes before the
// text or after it (TestStreamerFeelsAfterTheText). An unusual emotion or
// category before the text does not stop the stream: it is normalized, as
// the parser would.
func TestStreamerStreamsOnceFinal(t *testing.T) {
	for _, tt := range []struct {
		answer string
		stream bool
	}{
		{`{"action": "Weather App", "action_input": "Geneva. Now. Please."}`, false},
		{`{"action_input": "Hi. There.", "action": "Final Answer"}`, false},
		{`{"action": "Final Answer", "emotion": "joy", "action_input": "Hi. There.", "emotion_intensity": 5}`, true},
		{`{"action": "Final Answer", "action_input": "Hi. There.", "emotion": "joy", "emotion_intensity": 5}`, true},
		{`{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 5, "action_input": {"text": "Hi. There."}}`, false},
		{`{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 5, "action_input": "{\"reply\": \"Hi. There.\"}"}`, false},
		{`{"action": "Final Answer", "category": "greeting", "emotion": "glee", "emotion_intensity": 5, "causing_person": "human", "action_input": "Hi. There."}`, true},
		{`{"action": "Final Answer", "category": "question", "emotion": "joy", "emotion_intensity": 5, "action_input": "Hi. There."}`, true},
		{`{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 5, "causing_person": "Bob", "action_input": "Hi. There."}`, true},
	} {
		var sents []string
		s := &streamer{p: testParser("Alex"), onSent: func(x string) { sents = append(sents, x) }}
		s.write(tt.answer)
		s.flush()
		if s.spoke() != tt.stream {
			t.Errorf("%s: streamed %q, want streaming %v", tt.answer, sents, tt.stream)
		}
	}
}

// TestStreamerFeelsAfterTheText streams answers in the prompt's order (the
// reply, then the emotion): the first sentence goes out before the emotion
// has arrived, the emotion is announced once, as soon as it and its
// intensity are whole (before category and causing_person), and the reply
// is complete only then. Fed in every cut of one to seven bytes.
func TestStreamerFeelsAfterTheText(t *testing.T) {
	for _, tt := range []struct {
		name, answer string
		emotion      nadine.Emotion
		intensity    int
		earlyDone    bool // onComplete before the stream ended
	}{
		{"prompt order", "```json\n" + `{"action": "Final Answer", "action_input": "It is sunny. Enjoy it!", "emotion": "joy", "emotion_intensity": 10, "category": "other", "causing_person": "human"}` + "\n```", nadine.Joy, 10, true},
		{"seed order", `{"action": "Final Answer", "action_input": "It is sunny. Enjoy it!", "category": "other", "emotion": "sadness", "emotion_intensity": 3, "causing_person": "human"}`, nadine.Sadness, 3, true},
		{"intensity last", `{"action": "Final Answer", "action_input": "It is sunny. Enjoy it!", "emotion": "fear", "emotion_intensity": 7}`, nadine.Fear, 7, true},
		{"no emotion", `{"action": "Final Answer", "action_input": "It is sunny. Enjoy it!", "category": "other"}`, nadine.Neutral, 0, true},
		{"cut after the text", `{"action": "Final Answer", "action_input": "It is sunny. Enjoy it!", "emotion": "joy"`, nadine.Joy, 5, false},
	} {
		for cut := 1; cut <= 7; cut++ {
			var metas []step
			var sents []string
			var atFirst, atMeta string
			done := 0
			s := &streamer{p: testParser("Alex")}
			s.onSent = func(x string) {
				if len(sents) == 0 {
					atFirst = s.buf.String()
				}
				sents = append(sents, x)
			}
			s.onMeta = func(m step) { metas, atMeta = append(metas, m), s.buf.String() }
			s.onComplete = func() {
				if len(metas) != 1 {
					t.Errorf("%s, cut %d: the reply complete before the emotion was announced", tt.name, cut)
				}
				done++
			}
			for i := 0; i < len(tt.answer); i += cut {
				s.write(tt.answer[i:min(i+cut, len(tt.answer))])
			}
			if (done == 1) != tt.earlyDone || done > 1 {
				t.Errorf("%s, cut %d: onComplete called %d times during the stream", tt.name, cut, done)
			}
			got := s.finish(nil)
			if strings.Contains(atFirst, `"emotion"`) {
				t.Errorf("%s, cut %d: first sentence spoken only after %q", tt.name, cut, atFirst)
			}
			if tt.earlyDone && strings.Contains(atMeta, "causing_person") {
				t.Errorf("%s, cut %d: emotion announced only after %q", tt.name, cut, atMeta)
			}
			if len(metas) != 1 || metas[0].Emotion != tt.emotion || metas[0].Intensity != tt.intensity {
				t.Errorf("%s, cut %d: metas = %+v, want one %s %d", tt.name, cut, metas, tt.emotion, tt.intensity)
			}
			if strings.Join(sents, "|") != "It is sunny.|Enjoy it!" || got.Input != "It is sunny. Enjoy it!" || got.Emotion != tt.emotion || got.Intensity != tt.intensity {
				t.Errorf("%s, cut %d: sentences %q, finish %+v", tt.name, cut, sents, got)
			}
		}
	}
}

// TestStreamerReadsTheReplyAStopHeld: a sentence that is not speech stops
// the stream after a sentence was said; once the text is over it is read
// whole, as an answer that did not stream is, and the rest of the reply is
// said, not lost.
func TestStreamerReadsTheReplyAStopHeld(t *testing.T) {
	tests := []struct {
		name, input string
		want        []string
	}{
		{"a thought inside the reply", "Hello there! Thought: the visitor is new. Welcome to the lab!", []string{"Hello there!", "Welcome to the lab!"}},
		{"nothing after the stop", "Hello there! Thought: the visitor is new.", []string{"Hello there!"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, _ := json.Marshal(tt.input)
			var sents []string
			s := &streamer{p: testParser("Alex"), onSent: func(x string) { sents = append(sents, x) }}
			s.write(`{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 4, "action_input": ` + string(in) + `, "category": "greeting", "causing_person": "Alex"}`)
			got := s.finish(nadine.NewTrace("t", "", time.Now()))
			if strings.Join(sents, "|") != strings.Join(tt.want, "|") {
				t.Errorf("said %q, want %q", sents, tt.want)
			}
			if got.Input != strings.Join(tt.want, " ") {
				t.Errorf("reply %q, want %q", got.Input, strings.Join(tt.want, " "))
			}
		})
	}
}
