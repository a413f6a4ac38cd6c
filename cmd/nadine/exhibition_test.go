package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/config"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/langid"
)

// visitor is one person at the exhibition.
type visitor struct {
	name  string          // "" for an anonymous visitor
	id    string          // face recognition's id, for a visitor it knows
	intro bool            // they introduce themselves
	lang  nadine.Language // what they speak
	leave string          // "left" (their id), "left-empty", "left-other", "api", "idle"
	// stt says speech-to-text names the language it heard on the
	// transcript; english says the model answers them in English whatever
	// they speak (real models do).
	stt, english bool
}

// exhibitionHour is twelve visitors in a row, in four languages, known by
// face, anonymous or introducing themselves, leaving by every way there is.
var exhibitionHour = []visitor{
	{name: "Maria", id: "maria-1", lang: nadine.English, leave: "left"},
	{lang: nadine.French, leave: "left-empty"},
	{name: "Kenji", intro: true, lang: nadine.English, leave: "api"},
	{name: "Ingrid", id: "ingrid-2", lang: nadine.German, leave: "idle"},
	{lang: nadine.Chinese, leave: "left-other", english: true},
	{name: "Omar", id: "omar-3", lang: nadine.French, leave: "api", stt: true},
	{name: "Sofia", intro: true, lang: nadine.French, leave: "left-empty"},
	{name: "Lukas", id: "lukas-4", lang: nadine.German, leave: "left"},
	{name: "Wei", id: "wei-5", lang: nadine.Chinese, leave: "idle"},
	{lang: nadine.German, leave: "api", english: true, stt: true},
	{name: "Zoe", intro: true, lang: nadine.German, leave: "left-empty", stt: true},
	{name: "Farid", id: "farid-6", lang: nadine.English, leave: "left-other"},
}

// What visitors say, by language.
var (
	greetings = map[nadine.Language]string{
		nadine.English: "Hello Nadine, how are you today?",
		nadine.French:  "Bonjour Nadine, comment allez-vous aujourd'hui ?",
		nadine.German:  "Hallo Nadine, wie geht es dir heute?",
		nadine.Chinese: "你好，你今天好吗？",
	}
	introductions = map[nadine.Language]string{
		nadine.English: "My name is %s.",
		nadine.French:  "Je m'appelle %s.",
		nadine.German:  "Ich heiße %s.",
		nadine.Chinese: "我叫%s。",
	}
	recalls = map[nadine.Language]string{
		nadine.English: "Do you remember me?",
		nadine.French:  "Est-ce que vous vous souvenez de moi ?",
		nadine.German:  "Erinnerst du dich an mich?",
		nadine.Chinese: "你还记得我吗？",
	}
	// modelReplies is what the scripted model answers, in the visitor's
	// language, greeting every visitor whose name is in its prompt.
	modelReplies = map[nadine.Language]string{
		nadine.English: "Nice to meet you%s. I am Nadine, a social robot.",
		nadine.French:  "Enchantée%s. Je suis Nadine, un robot social.",
		nadine.German:  "Schön, dich kennenzulernen%s. Ich bin Nadine, ein sozialer Roboter.",
		nadine.Chinese: "很高兴认识你%s。我是一个社交机器人。",
	}
)

// exhibitionModel is an OpenAI-compatible model that answers every role
// the way a real model would for these visitors: in the language of what
// was just said, naming whoever its prompt names.
type exhibitionModel struct {
	mu      sync.Mutex
	cur     string // what the visitor just said
	english bool   // answer in English whatever they said
	srv     *llmtest.Server
}

func (m *exhibitionModel) said(text string, english bool) {
	m.mu.Lock()
	m.cur, m.english = text, english
	m.mu.Unlock()
}

func (m *exhibitionModel) current() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cur
}

// namesIn returns the visitors' names a request carries.
func namesIn(r llmtest.Request) []string {
	var all strings.Builder
	for _, msg := range r.Messages {
		all.WriteString(msg.Content + "\n")
	}
	var out []string
	for _, v := range exhibitionHour {
		if v.name != "" && regexp.MustCompile(`\b`+v.name+`\b`).MatchString(all.String()) {
			out = append(out, v.name)
		}
	}
	return out
}

func (m *exhibitionModel) reply(r llmtest.Request, det nadine.LanguageDetector) string {
	lang, _, ok := det.Detect(m.current())
	m.mu.Lock()
	if !ok || m.english {
		lang = nadine.English
	}
	m.mu.Unlock()
	names := ""
	if ns := namesIn(r); len(ns) > 0 {
		sep := ", "
		if lang == nadine.Chinese {
			sep = "，"
		}
		names = sep + strings.Join(ns, sep)
	}
	return fmt.Sprintf(modelReplies[lang], names)
}

func startExhibitionModel(t *testing.T) *exhibitionModel {
	det, err := langid.New()
	if err != nil {
		t.Fatal(err)
	}
	m := &exhibitionModel{srv: llmtest.New(t)}
	introduced := func() string {
		for _, v := range exhibitionHour {
			if v.intro && strings.Contains(m.current(), v.name) {
				return v.name
			}
		}
		return ""
	}
	s := m.srv
	s.On(llmtest.MatchModel("intent_classifier")).ReplyFunc(func(llmtest.Request) string {
		switch cur := m.current(); {
		case introduced() != "":
			return "update_user_info"
		case cur == greetings[nadine.English] || cur == greetings[nadine.French] || cur == greetings[nadine.German] || cur == greetings[nadine.Chinese]:
			return "first_greeting"
		}
		return "continue_conversation"
	})
	s.On(llmtest.MatchModel("memory_update")).ReplyFunc(func(llmtest.Request) string {
		return fmt.Sprintf(`{"user_name":%q,"current_company":"","current_position":"","location":"","hobbies":[],"interests":[]}`, introduced())
	})
	s.On(llmtest.MatchModel("appraisal")).Reply(`{"emotion":"joy","intensity":0.3}`)
	s.On(llmtest.MatchModel("orchestrator")).Reply(`{"plan":[]}`)
	s.On(llmtest.MatchModel("context_summary")).Reply("The visitor and Nadine are chatting.")
	s.On(llmtest.MatchModel("contextualizer")).ReplyFunc(func(llmtest.Request) string { return m.current() })
	// The translator translates into the language its prompt names.
	translations := map[string]string{
		"into English": "An English rendering.", "into French": "Ceci est une traduction en français.",
		"into German": "Das ist eine Übersetzung ins Deutsche.", "into Simplified Chinese": "这是翻译成中文的句子。",
	}
	s.On(llmtest.MatchModel("translator")).ReplyFunc(func(r llmtest.Request) string {
		for into, text := range translations {
			if strings.Contains(r.System(), into) {
				return text
			}
		}
		return r.LastUser()
	})
	s.On(llmtest.MatchModel("response")).ReplyFunc(func(r llmtest.Request) string { return m.reply(r, det) })
	s.On(llmtest.MatchModel("react_agent")).ReplyFunc(func(r llmtest.Request) string {
		b, _ := json.Marshal(map[string]any{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 4,
			"action_input": m.reply(r, det), "category": "greeting", "causing_person": "human"})
		return "```json\n" + string(b) + "\n```"
	})
	return m
}

// exhibitionConfig writes the configuration of the run: every role on its
// own profile (the model name is the role's), lexical embeddings, an idle
// timeout short enough to wait for, long enough for four runs side by side.
func exhibitionConfig(t testing.TB, engine, modelURL string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "engine: %s\ndata_dir: %s\nembeddings: {provider: lexical}\nsession: {idle_timeout: 3s}\n", engine, t.TempDir())
	b.WriteString("features: {vision_agent: false}\nlimits: {turn_timeout: 30s}\nmodels:\n  profiles:\n")
	for _, r := range config.RoleNames() {
		fmt.Fprintf(&b, "    %s: {base_url: %q, model: %s, api_key: test, max_retries: 0}\n", r, modelURL, r)
	}
	b.WriteString("  roles:\n")
	for _, r := range config.RoleNames() {
		fmt.Fprintf(&b, "    %s: %s\n", r, r)
	}
	p := filepath.Join(t.TempDir(), "nadine.yaml")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// spoken is one speak message as text-to-speech gets it.
type spokenMsg struct {
	Text     string `json:"text"`
	Language string `json:"language"`
	Locale   string `json:"locale"`
	Final    bool   `json:"final"`
	Filler   bool   `json:"filler"`
	TurnID   string `json:"turn_id"`
}

// robotSide is what the test sees of the robot: every speak message, and
// the retained stt/language.
type robotSide struct {
	mu     sync.Mutex
	speak  []spokenMsg
	finals map[string]bool
	stt    string
}

func (r *robotSide) collect(speak, stt *mqtttest.Peer) {
	go func() {
		for m := range speak.Msg {
			var s spokenMsg
			_ = json.Unmarshal(m.Payload, &s)
			r.mu.Lock()
			r.speak = append(r.speak, s)
			if s.Final {
				r.finals[s.TurnID] = true
			}
			r.mu.Unlock()
		}
	}()
	go func() {
		for m := range stt.Msg {
			var l struct {
				Language string `json:"language"`
			}
			_ = json.Unmarshal(m.Payload, &l)
			r.mu.Lock()
			r.stt = l.Language
			r.mu.Unlock()
		}
	}()
}

func (r *robotSide) final(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.finals[id]
}

func (r *robotSide) sentences(id string) []spokenMsg {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []spokenMsg
	for _, s := range r.speak {
		if s.TurnID == id && !s.Final && !s.Filler {
			out = append(out, s)
		}
	}
	return out
}

func (r *robotSide) sttLanguage() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stt
}

// TestExhibitionHour runs an hour of an exhibition through `nadine serve`
// over MQTT, with each engine on the embedded broker and the graph on
// Mosquitto (the broker and the engine are independent axes: the engines
// never see the broker, so one engine on the second broker covers it):
// twelve visitors in a row in English, French, German and Chinese, some
// known by face, some anonymous, some introducing themselves, leaving by
// user/left (their id, none, another id), the API and the idle timeout.
// No reply and no prompt names a previous visitor; every sentence's locale
// is the language its text is in; the retained stt/language is the
// session language.
func TestExhibitionHour(t *testing.T) {
	if testing.Short() {
		t.Skip("an hour of visitors; skipped with -short")
	}
	det, err := langid.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Parallel() // each run has its own serve, broker, ports and data directory
	for _, broker := range []string{"embedded", "mosquitto"} {
		for _, engine := range []string{"offline", "react", "graph"} {
			if broker == "mosquitto" && engine != "graph" {
				continue
			}
			t.Run(broker+"/"+engine, func(t *testing.T) {
				// Most of a run is waiting (for replies and the idle
				// timeout), so the four overlap.
				t.Parallel()
				mqttEnv := map[string]string{"NADINE_MQTT_LISTEN": "127.0.0.1:0"}
				if broker == "mosquitto" {
					mqttEnv = map[string]string{"NADINE_MQTT_URL": mqtttest.StartMosquitto(t).URL()}
				}
				exhibition(t, det, engine, mqttEnv)
			})
		}
	}
}

func exhibition(t *testing.T, det nadine.LanguageDetector, engine string, mqttEnv map[string]string) {
	model := startExhibitionModel(t)
	vars := map[string]string{"NADINE_CONFIG": exhibitionConfig(t, engine, model.srv.URL())}
	for k, v := range mqttEnv {
		vars[k] = v
	}
	p := startServe(t, vars)
	defer func() {
		if err := p.stop(); err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	stderr, mqttURL, monitor := p.stderr, p.mqttURL, p.monitor
	if engine != "offline" && strings.Contains(stderr.String(), "OFFLINE") {
		t.Fatalf("the %s engine runs offline:\n%s", engine, stderr.String())
	}
	addr := mqtttest.HostPort(mqttURL)
	robot := &robotSide{finals: map[string]bool{}}
	robot.collect(mqtttest.NewPeer(t, addr, "nadine/agent/control/speak"), mqtttest.NewPeer(t, addr, "nadine/stt/language"))
	perception := mqtttest.NewPeer(t, addr)
	stt := mqtttest.NewPeer(t, addr)

	session := func() (s struct {
		User     nadine.UserRef  `json:"user"`
		Language nadine.Language `json:"language"`
		Turns    int             `json:"turns"`
	}) {
		resp, err := http.Get(monitor + "/api/session")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	// inStep waits until speech-to-text listens for the session language.
	inStep := func(when string) {
		t.Helper()
		mqtttest.Eventually(t, "stt/language to equal the session language "+when, func() bool {
			return robot.sttLanguage() == string(session().Language)
		})
	}
	inStep("at start")

	turn := 0
	say := func(v visitor, text string) []spokenMsg {
		t.Helper()
		turn++
		id := fmt.Sprintf("turn-%d", turn)
		model.said(text, v.english)
		lang := ""
		if v.stt {
			lang = fmt.Sprintf(`,"language":%q`, v.lang)
		}
		stt.Publish("nadine/stt/transcript", fmt.Appendf(nil, `{"text":%q,"final":true,"id":%q%s}`, text, id, lang))
		mqtttest.Eventually(t, "the reply to "+text, func() bool { return robot.final(id) })
		inStep("after " + text)
		return robot.sentences(id)
	}

	var before []string // the names of the visitors who left
	for i, v := range exhibitionHour {
		from := len(model.srv.Requests())
		if v.id != "" {
			perception.Publish("nadine/graph/user_detected", fmt.Appendf(nil, `{"user_name":%q,"user_id":%q,"confidence":0.92}`, v.name, v.id))
			mqtttest.Eventually(t, v.name+" in front of the robot", func() bool { return session().User.ID == v.id })
		}
		var said [][]spokenMsg
		said = append(said, say(v, greetings[v.lang]))
		if v.intro {
			said = append(said, say(v, fmt.Sprintf(introductions[v.lang], v.name)))
		}
		said = append(said, say(v, recalls[v.lang]))
		for _, sentences := range said {
			if len(sentences) == 0 {
				t.Errorf("visitor %d said something and heard nothing", i)
			}
			for _, s := range sentences {
				for _, prev := range before {
					if strings.Contains(s.Text, prev) {
						t.Errorf("visitor %d (%s) heard the name of %s, who left: %q", i, v.lang, prev, s.Text)
					}
				}
				if l, _, ok := det.Detect(s.Text); ok && (s.Locale != l.Locale() || s.Language != string(l)) {
					t.Errorf("visitor %d: %q tagged %s/%s, but it is %s", i, s.Text, s.Language, s.Locale, l.Name())
				}
				if s.Language != string(v.lang) && !v.english {
					t.Errorf("visitor %d speaks %s and heard %q in %s", i, v.lang.Name(), s.Text, s.Language)
				}
			}
		}
		for _, r := range model.srv.Requests()[from:] {
			if r.Model == "context_summary" || r.Model == "translator" {
				continue // the previous turn's background work, and the monitor's English
			}
			for _, n := range namesIn(r) {
				for _, prev := range before {
					if n == prev {
						t.Errorf("visitor %d: a %s prompt names %s, who left", i, r.Model, prev)
					}
				}
			}
		}

		switch v.leave {
		case "left":
			perception.Publish("nadine/user/left", fmt.Appendf(nil, `{"user_id":%q}`, v.id))
		case "left-empty":
			perception.Publish("nadine/user/left", nil)
		case "left-other":
			perception.Publish("nadine/user/left", []byte(`{"user_id":"face-4711"}`))
		case "api":
			resp, err := http.Post(monitor+"/api/session/end", "application/json", strings.NewReader(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusAccepted {
				t.Errorf("POST /api/session/end: %d", resp.StatusCode)
			}
		case "idle":
			// Nobody speaks, nobody is seen: the idle timeout ends it.
		}
		mqtttest.Eventually(t, fmt.Sprintf("visitor %d's interaction to end (%s)", i, v.leave), func() bool {
			s := session()
			return s.User.ID == nadine.UnknownUser && s.Turns == 0
		})
		inStep("after visitor " + fmt.Sprint(i) + " left")
		if s := session(); s.Language != nadine.English {
			t.Errorf("after visitor %d left the session language is %s, want the default", i, s.Language)
		}
		if v.name != "" {
			before = append(before, v.name)
		}
	}
	if strings.Contains(stderr.String(), "engine failed") {
		t.Errorf("the %s engine failed and another answered:\n%s", engine, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interaction ended") {
		t.Error("no end of interaction was logged")
	}
}
