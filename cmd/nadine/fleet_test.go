package main

import (
	"context"
	"crypto/rand"
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
	"github.com/nadine-robot/nadine/sqlite"
)

// serveConfig runs `nadine serve` in-process with the configuration file
// body until the test ends, and waits until it listens.
func serveConfig(t *testing.T, body string) *servedProcess {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nadine.yaml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return startServe(t, map[string]string{"NADINE_CONFIG": path})
}

// get decodes the JSON of a GET on the monitor.
func (s *servedProcess) get(t *testing.T, path string, v any) int {
	t.Helper()
	resp, err := http.Get(s.monitor + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if v != nil && resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode
}

// sessionOf is the session of a robot as the monitor shows it.
type sessionOf struct {
	User     nadine.UserRef  `json:"user"`
	Language nadine.Language `json:"language"`
	Turns    int             `json:"turns"`
}

// fleetBus is what the test sees of every robot's topics: one peer
// subscribed to everything.
type fleetBus struct {
	t    *testing.T
	mu   sync.Mutex
	msgs []busMsg
	turn map[string]string // turn id → the robot it was said to
	out  *mqtttest.Peer
	n    int
}

type busMsg struct {
	topic   string
	payload []byte
}

func newFleetBus(t *testing.T, addr string) *fleetBus {
	b := &fleetBus{t: t, turn: map[string]string{}, out: mqtttest.NewPeer(t, addr)}
	in := mqtttest.NewPeer(t, addr, "#")
	go func() {
		for m := range in.Msg {
			b.mu.Lock()
			b.msgs = append(b.msgs, busMsg{m.Topic, m.Payload})
			b.mu.Unlock()
		}
	}()
	return b
}

// say publishes a transcript to a robot and returns the sentences of its
// reply once the final one came.
func (b *fleetBus) say(robot, text string) []spokenMsg {
	b.t.Helper()
	b.mu.Lock()
	b.n++
	id := fmt.Sprintf("%s-turn-%d", strings.ReplaceAll(robot, "/", "-"), b.n)
	b.turn[id] = robot
	b.mu.Unlock()
	b.out.Publish(robot+"/stt/transcript", fmt.Appendf(nil, `{"text":%q,"final":true,"id":%q}`, text, id))
	var said []spokenMsg
	mqtttest.Eventually(b.t, "the reply of "+robot+" to "+text, func() bool {
		said = nil
		final := false
		for _, s := range b.speech(robot + "/agent/control/speak") {
			if s.TurnID == id {
				final = final || s.Final
				if !s.Final && !s.Filler {
					said = append(said, s)
				}
			}
		}
		return final
	})
	return said
}

// publish sends a perception message to a robot.
func (b *fleetBus) publish(robot, topic, payload string) {
	b.t.Helper()
	b.out.Publish(robot+"/"+topic, []byte(payload))
}

// speech returns the speak messages on a topic.
func (b *fleetBus) speech(topic string) []spokenMsg {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []spokenMsg
	for _, m := range b.msgs {
		if m.topic == topic {
			var s spokenMsg
			_ = json.Unmarshal(m.payload, &s)
			out = append(out, s)
		}
	}
	return out
}

// last returns the last payload on a topic, "" when none came.
func (b *fleetBus) last(topic string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.msgs) - 1; i >= 0; i-- {
		if b.msgs[i].topic == topic {
			return string(b.msgs[i].payload)
		}
	}
	return ""
}

// crossed lists the speak messages heard on another robot's topics than
// the one their turn was said to.
func (b *fleetBus) crossed() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.msgs {
		robot, ok := strings.CutSuffix(m.topic, "/agent/control/speak")
		if !ok {
			continue
		}
		var s spokenMsg
		_ = json.Unmarshal(m.payload, &s)
		if said, known := b.turn[s.TurnID]; !known || said != robot {
			out = append(out, fmt.Sprintf("%s: %+v (said to %q)", m.topic, s, said))
		}
	}
	return out
}

// userInfo is the identity a robot last told face recognition.
func (b *fleetBus) userInfo(robot string) nadine.UserRef {
	var u nadine.UserRef
	_ = json.Unmarshal([]byte(b.last(robot+"/face_recognition/user_info")), &u)
	return u
}

// joined is the text of a reply.
func joined(said []spokenMsg) string {
	var parts []string
	for _, s := range said {
		parts = append(parts, s.Text)
	}
	return strings.Join(parts, " ")
}

// TestServeRobots serves two robots from one process on the embedded
// broker: each answers on its own topics only, in its own language, with
// its own session (robot/<prefix>/session) and speech-to-text language;
// the monitor lists both and shows each one's session and turns, the
// first at the one-robot URLs.
func TestServeRobots(t *testing.T) {
	dir := t.TempDir()
	s := serveConfig(t, fmt.Sprintf(`engine: offline
data_dir: %s
mqtt: {listen: "127.0.0.1:0"}
robots:
  - prefix: lobby
  - prefix: museum/hall
    language: fr
`, dir))
	if !strings.Contains(s.stderr.String(), "2 robots, topics lobby/..., museum/hall/...") {
		t.Errorf("the banner does not name the robots:\n%s", s.stderr.String())
	}
	bus := newFleetBus(t, mqtttest.HostPort(s.mqttURL))
	mqtttest.Eventually(t, "each robot's speech-to-text language", func() bool {
		return strings.Contains(bus.last("lobby/stt/language"), `"en"`) && strings.Contains(bus.last("museum/hall/stt/language"), `"fr"`)
	})
	bus.publish("lobby", "graph/user_detected", `{"user_name":"Maria","user_id":"maria-1","confidence":0.9}`)
	mqtttest.Eventually(t, "Maria in front of the lobby", func() bool {
		var sess sessionOf
		s.get(t, "/api/robots/lobby/session", &sess)
		return sess.User.ID == "maria-1"
	})
	var wg sync.WaitGroup
	replies := map[string]string{}
	var mu sync.Mutex
	for _, r := range []struct{ robot, text string }{{"lobby", "Hello Nadine!"}, {"museum/hall", "Bonjour Nadine !"}} {
		wg.Go(func() {
			said := joined(bus.say(r.robot, r.text))
			mu.Lock()
			replies[r.robot] = said
			mu.Unlock()
		})
	}
	wg.Wait()
	if !strings.Contains(replies["lobby"], "Maria") {
		t.Errorf("the lobby greeted %q, want Maria by name", replies["lobby"])
	}
	if strings.Contains(replies["museum/hall"], "Maria") || replies["museum/hall"] == "" {
		t.Errorf("the hall, where nobody is known, said %q", replies["museum/hall"])
	}
	if c := bus.crossed(); len(c) > 0 {
		t.Errorf("speech on another robot's topics:\n%s", strings.Join(c, "\n"))
	}
	for _, sp := range bus.speech("museum/hall/agent/control/speak") {
		if !sp.Final && sp.Language != "fr" {
			t.Errorf("the hall said %q in %s, want French", sp.Text, sp.Language)
		}
	}

	// The monitor: both robots, the first the default.
	var robots struct {
		Robots []struct {
			Name    string    `json:"name"`
			Default bool      `json:"default"`
			Engine  string    `json:"engine"`
			Session sessionOf `json:"session"`
		} `json:"robots"`
	}
	s.get(t, "/api/robots", &robots)
	if len(robots.Robots) != 2 || robots.Robots[0].Name != "lobby" || !robots.Robots[0].Default || robots.Robots[1].Name != "museum/hall" ||
		robots.Robots[1].Default || robots.Robots[0].Engine != "offline" || robots.Robots[0].Session.User.ID != "maria-1" {
		t.Errorf("GET /api/robots = %+v", robots)
	}
	var def, hall sessionOf
	s.get(t, "/api/session", &def)
	s.get(t, "/api/robots/museum%2Fhall/session", &hall)
	if def.User.ID != "maria-1" || def.Turns != 1 || hall.User.ID != nadine.UnknownUser || hall.Language != nadine.French || hall.Turns != 1 {
		t.Errorf("sessions: default %+v, hall %+v", def, hall)
	}
	var turns struct {
		Updates []struct {
			Kind  string `json:"kind"`
			Input string `json:"input"`
		} `json:"updates"`
	}
	// A turn is shown once it is over, just after its final sentence.
	mqtttest.Eventually(t, "the hall's turn on the monitor", func() bool {
		s.get(t, "/api/robots/museum%2Fhall/turns", &turns)
		return len(turns.Updates) > 0
	})
	if len(turns.Updates) != 1 || turns.Updates[0].Input != "Bonjour Nadine !" {
		t.Errorf("the hall's recent turns: %+v", turns.Updates)
	}
	if code := s.get(t, "/api/robots/cafe/session", nil); code != http.StatusNotFound {
		t.Errorf("an unknown robot's session: %d, want 404", code)
	}

	// Each robot's session is saved under its own key.
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "nadine.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for robot, want := range map[string]string{"lobby": `"user_id":"maria-1"`, "museum/hall": `"language":"fr"`} {
		b, err := st.LoadCheckpoint(context.Background(), "robot/"+robot+"/session")
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("robot/%s/session = %s, %v; want it to hold %s", robot, b, err, want)
		}
	}
}

// fleetModel answers the graph engine's roles for a visitor named Alex,
// the way a real model would: the memory agent extracts the name from an
// introduction, the response names whoever its prompt names.
func fleetModel(t *testing.T) *llmtest.Server {
	srv := llmtest.New(t)
	intro := llmtest.MatchLastUser("My name is Alex")
	srv.On(llmtest.MatchAll(llmtest.MatchModel("intent_classifier"), intro)).Reply("update_user_info")
	srv.On(llmtest.MatchAll(llmtest.MatchModel("intent_classifier"), llmtest.MatchLastUser("Hello"))).Reply("first_greeting")
	srv.On(llmtest.MatchModel("intent_classifier")).Reply("continue_conversation")
	srv.On(llmtest.MatchModel("memory_update")).ReplyFunc(func(r llmtest.Request) string {
		name := ""
		for _, m := range r.Messages {
			if strings.Contains(m.Content, "My name is Alex") {
				name = "Alex"
			}
		}
		return fmt.Sprintf(`{"user_name":%q,"current_company":"","current_position":"","location":"","hobbies":[],"interests":[]}`, name)
	})
	srv.On(llmtest.MatchModel("appraisal")).Reply(`{"emotion":"joy","intensity":0.4}`)
	srv.On(llmtest.MatchModel("orchestrator")).Reply(`{"plan":[]}`)
	srv.On(llmtest.MatchModel("context_summary")).Reply("A visitor talks with Nadine.")
	srv.On(llmtest.MatchModel("response")).ReplyFunc(func(r llmtest.Request) string {
		for _, m := range r.Messages {
			if m.Role != "system" && regexp.MustCompile(`\bAlex\b`).MatchString(m.Content) {
				return "Hello Alex, how nice to see you. I am Nadine."
			}
		}
		return "Hello, how nice to see you. I am Nadine."
	})
	return srv
}

// modelConfig is the models block that puts every role on its own profile
// of the scripted server (the model is the role's name).
func modelConfig(url string) string {
	var b strings.Builder
	b.WriteString("models:\n  profiles:\n")
	for _, r := range config.RoleNames() {
		fmt.Fprintf(&b, "    %s: {base_url: %q, model: %s, api_key: test, max_retries: 0}\n", r, url, r)
	}
	b.WriteString("  roles:\n")
	for _, r := range config.RoleNames() {
		fmt.Fprintf(&b, "    %s: %s\n", r, r)
	}
	return b.String()
}

// TestFleetMemory: a person introduced at robot A is greeted by name at
// robot B, whether B's perception recognizes their face (the id A gave
// face recognition) or they say their name again (B finds the person A
// met and tells face recognition the same id); with the offline engine and
// with the graph engine against a scripted model; two robots of one
// process on SQLite, and two servers of their own on one PostgreSQL and
// one Mosquitto.
func TestFleetMemory(t *testing.T) {
	for _, topology := range []string{"one process", "two servers"} {
		for _, engine := range []string{"offline", "graph"} {
			t.Run(topology+"/"+engine, func(t *testing.T) {
				base := fmt.Sprintf("engine: %s\nembeddings: {provider: lexical}\nfeatures: {vision_agent: false}\nlimits: {turn_timeout: 30s}\nlog: {level: warn}\n", engine)
				if engine == "graph" {
					base += modelConfig(fleetModel(t).URL())
				}
				var a, b *servedProcess
				switch topology {
				case "one process":
					a = serveConfig(t, base+fmt.Sprintf("data_dir: %s\nmqtt: {listen: '127.0.0.1:0'}\nrobots: [{prefix: robot-a}, {prefix: robot-b}]\n", t.TempDir()))
					b = a
				case "two servers":
					url := testPostgresURL(t)
					schema := "fleet_memory_" + strings.ToLower(rand.Text()[:8])
					dropSchemaAtEnd(t, url, schema)
					broker := mqtttest.StartMosquitto(t)
					shared := base + fmt.Sprintf("mqtt: {url: %q}\nstore: {url: %q, schema: %s}\n", broker.URL(), url, schema)
					a = serveConfig(t, shared+fmt.Sprintf("data_dir: %s\nrobots: [{prefix: robot-a}]\n", t.TempDir()))
					b = serveConfig(t, shared+fmt.Sprintf("data_dir: %s\nrobots: [{prefix: robot-b}]\n", t.TempDir()))
				}
				fleetMemory(t, a, b)
				answeredBy(t, a, "robot-a", engine, 2)
				answeredBy(t, b, "robot-b", engine, 3)
			})
		}
	}
}

func fleetMemory(t *testing.T, a, b *servedProcess) {
	bus := newFleetBus(t, mqtttest.HostPort(a.mqttURL))
	session := func(s *servedProcess, robot string) sessionOf {
		var sess sessionOf
		s.get(t, "/api/robots/"+robot+"/session", &sess)
		return sess
	}

	// At robot A, a stranger introduces themselves, then leaves.
	bus.say("robot-a", "Hello!")
	if said := joined(bus.say("robot-a", "My name is Alex.")); !strings.Contains(said, "Alex") {
		t.Errorf("robot A answered the introduction with %q", said)
	}
	alex := bus.userInfo("robot-a")
	if alex.ID == "" || alex.ID == nadine.UnknownUser || alex.Name != "Alex" {
		t.Fatalf("robot A told face recognition %+v, want Alex's new id", alex)
	}
	mqtttest.Eventually(t, "Alex's profile in the store", func() bool {
		var users []nadine.UserRef
		b.get(t, "/api/users", &users)
		for _, u := range users {
			if u.ID == alex.ID && u.Name == "Alex" {
				return true
			}
		}
		return false
	})
	bus.publish("robot-a", "user/left", "")
	mqtttest.Eventually(t, "Alex to leave robot A", func() bool { return session(a, "robot-a").User.ID == nadine.UnknownUser })

	// At robot B, perception knows the face by the id robot A gave it.
	bus.publish("robot-b", "graph/user_detected", fmt.Sprintf(`{"user_id":%q,"confidence":0.9}`, alex.ID))
	mqtttest.Eventually(t, "Alex in front of robot B", func() bool { return session(b, "robot-b").User.ID == alex.ID })
	if said := joined(bus.say("robot-b", "Hello!")); !strings.Contains(said, "Alex") {
		t.Errorf("robot B greeted the face robot A met with %q, want Alex's name", said)
	}
	bus.publish("robot-b", "user/left", "")
	mqtttest.Eventually(t, "Alex to leave robot B", func() bool { return session(b, "robot-b").User.ID == nadine.UnknownUser })

	// Back at robot B as a stranger, they say their name: the person robot
	// A met, not a new one.
	bus.say("robot-b", "Hello!")
	if said := joined(bus.say("robot-b", "My name is Alex.")); !strings.Contains(said, "Alex") {
		t.Errorf("robot B answered Alex's name with %q", said)
	}
	if got := bus.userInfo("robot-b"); got.ID != alex.ID {
		t.Errorf("robot B told face recognition %+v, want robot A's id %s", got, alex.ID)
	}
	if got := session(b, "robot-b").User.ID; got != alex.ID {
		t.Errorf("robot B talks with %s, want %s", got, alex.ID)
	}
	if got := session(a, "robot-a").User.ID; got != nadine.UnknownUser {
		t.Errorf("robot A's session became %s's", got)
	}
	if c := bus.crossed(); len(c) > 0 {
		t.Errorf("speech on another robot's topics:\n%s", strings.Join(c, "\n"))
	}
}

// answeredBy checks that the robot's last turns (n at least) were all
// answered by engine, none by a fallback.
func answeredBy(t *testing.T, s *servedProcess, robot, engine string, n int) {
	t.Helper()
	var turns struct {
		Updates []struct {
			Kind  string `json:"kind"`
			Input string `json:"input"`
			Reply *struct {
				Fallback bool `json:"fallback"`
				Trace    *struct {
					Engine string `json:"engine"`
				} `json:"trace"`
			} `json:"reply"`
		} `json:"updates"`
	}
	// A turn is shown once it is over, just after its final sentence.
	mqtttest.Eventually(t, fmt.Sprintf("%d turns of %s on the monitor", n, robot), func() bool {
		s.get(t, "/api/robots/"+robot+"/turns", &turns)
		return len(turns.Updates) >= n
	})
	for _, u := range turns.Updates {
		if u.Kind == "turn" && (u.Reply == nil || u.Reply.Trace == nil || u.Reply.Trace.Engine != engine || u.Reply.Fallback) {
			t.Errorf("%s: the turn %q was not answered by the %s engine: %+v", robot, u.Input, engine, u.Reply)
		}
	}
}
