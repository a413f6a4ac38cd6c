package agents_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/fence"
	"github.com/nadine-robot/nadine/internal/llmtest"
)

func intentFor(h *harness, text, label string) {
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleIntent), llmtest.MatchLastUser(text))).Reply(label)
}

func planFor(h *harness, text, plan string) {
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleOrchestrator), llmtest.MatchLastUser(text))).Reply(plan)
}

func TestNewValidates(t *testing.T) {
	if _, err := agents.New(agents.Options{}); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("New without models: %v, want EINVALID", err)
	}
	none := func(string) nadine.ChatModel { return nil }
	if _, err := agents.New(agents.Options{Models: none}); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("New without a response model: %v, want EINVALID", err)
	}
	h := newHarness(t)
	h.opts.NameLow, h.opts.NameHigh = 0.9, 0.5
	if _, err := agents.New(h.opts); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("New with NameLow > NameHigh: %v, want EINVALID", err)
	}
	h = newHarness(t).start()
	if got := h.eng.Name(); got != "graph" {
		t.Errorf("Name() = %q", got)
	}
	if _, err := h.eng.Respond(context.Background(), nadine.Request{Turn: nadine.Turn{Text: "  "}}); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("empty input: %v, want EINVALID", err)
	}
}

func TestGreetingFastPathOncePerUser(t *testing.T) {
	h := newHarness(t)
	h.saveProfile(nadine.Profile{UserID: "alex-1", UserName: "Alex"})
	intentFor(h, "Hello Nadine", "first_greeting")
	intentFor(h, "Hi again", "first_greeting")
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleResponse), llmtest.MatchLastUser("GREETING YOU"))).
		Reply("Hello Alex! How nice to see you.")
	h.start().as("alex-1", "Alex")

	h.gate.arm(2) // the intent and the appraisal overlap for sure
	reply, tr := h.turn("Hello Nadine!")
	checkVisited(t, tr, group, "orchestrator", "response_agent", "affective_update")
	if got, want := callRoles(tr), []string{"appraisal", "intent_classifier", "response"}; !slices.Equal(got, want) {
		t.Errorf("model calls %q, want %q: no orchestrator or contextualizer call on the fast path", got, want)
	}
	if !slices.Contains(reply.Gestures, nadine.Wave) || len(h.eventsOf(nadine.EventGesture)) != 1 {
		t.Errorf("gestures %v, events %v: want one wave", reply.Gestures, h.eventsOf(nadine.EventGesture))
	}
	if reply.Category != nadine.CategoryGreeting || reply.Text != "Hello Alex! How nice to see you." {
		t.Errorf("reply %+v", reply)
	}
	if got := h.spoken(); got != "Hello Alex! How nice to see you." {
		t.Errorf("spoken %q", got)
	}
	// The greeting's response was speculated beside the group and kept:
	// one response call, started with the group (how many calls the turn
	// waited on in sequence then depends on which of them ended first).
	if sp := tr.Speculations; len(sp) != 1 || !sp[0].Kept || len(h.requests(agents.RoleResponse)) != 1 {
		t.Errorf("speculations %+v, %d response calls; want the greeting's response speculated and kept", sp, len(h.requests(agents.RoleResponse)))
	}
	if sys := h.lastRequest(agents.RoleResponse).System(); !strings.Contains(sys, "You are Nadine") {
		t.Errorf("response system prompt: %q", sys)
	}
	if got := h.lastRequest(agents.RoleResponse).LastUser(); !strings.Contains(got, "Name: Alex") {
		t.Errorf("packet without the person: %q", got)
	}

	// The same user greets again: no second greeting, no wave.
	reply, tr = h.turn("Hi again Nadine")
	if reply.Category == nadine.CategoryGreeting || len(h.eventsOf(nadine.EventGesture)) != 0 {
		t.Errorf("second greeting accepted: %+v", reply)
	}
	if !hasNote(tr, "already greeted") {
		t.Errorf("notes %q: want the downgrade noted", tr.Notes)
	}
	// The greeting-like message was not planned speculatively, so the
	// plan is made after the group.
	checkVisited(t, tr, group, "orchestrator", "response_agent", "affective_update")
	if n := len(h.requests(agents.RoleOrchestrator)); n != 1 {
		t.Errorf("orchestrator requests %d, want 1", n)
	}
}

func TestGreetingUnknownUserNeverSuppressed(t *testing.T) {
	h := newHarness(t)
	intentFor(h, "Hello", "first_greeting")
	h.start()
	for i := range 2 {
		reply, _ := h.turn("Hello!")
		if reply.Category != nadine.CategoryGreeting {
			t.Errorf("greeting %d of an unknown person suppressed: %+v", i+1, reply)
		}
	}
}

func TestProfileUpdate(t *testing.T) {
	// No speculative response: the plan is not empty, and a cancelled
	// speculation's request may reach the server after the real one,
	// making it the "last" response request.
	h := newHarness(t, func(o *agents.Options) { o.Speculate = false })
	h.saveProfile(nadine.Profile{UserID: "alex-1", UserName: "Alex", Hobbies: []string{"skiing"}})
	intentFor(h, "CERN", "update_user_info")
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleMemoryUpdate), llmtest.MatchLastUser("CERN"))).
		Reply(`{"user_name":"","current_company":"CERN","current_position":"physicist","location":"","hobbies":["Skiing","chess"],"interests":[]}`)
	h.start().as("alex-1", "Alex")

	_, tr := h.turn("I work at CERN as a physicist, and I play chess.")
	checkVisited(t, tr, group, "memory_update_agent", "orchestrator", "response_agent", "affective_update")
	p := h.profile("alex-1")
	if p.CurrentCompany != "CERN" || p.CurrentPosition != "physicist" || !slices.Equal(p.Hobbies, []string{"skiing", "chess"}) {
		t.Errorf("profile %+v", p)
	}
	if !p.LastUpdated.Equal(h.now) {
		t.Errorf("last_updated %v, want %v", p.LastUpdated, h.now)
	}
	req := h.lastRequest(agents.RoleMemoryUpdate)
	if req.ResponseFormat != nadine.FormatJSONSchema || req.SchemaName != "user_info" {
		t.Errorf("extraction format %q %q, want a JSON schema", req.ResponseFormat, req.SchemaName)
	}
	if got := h.lastRequest(agents.RoleResponse).LastUser(); !strings.Contains(got, "works as physicist at CERN") ||
		!strings.Contains(got, "remember their current company") {
		t.Errorf("packet without the new facts: %q", got)
	}
	if evs := h.eventsOf(nadine.EventUser); len(evs) != 1 || evs[0].User.ID != "alex-1" {
		t.Errorf("user events %v", evs)
	}
}

func TestNoNameStoresNothing(t *testing.T) {
	h := newHarness(t)
	intentFor(h, "skiing", "update_user_info")
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleMemoryUpdate), llmtest.MatchLastUser("skiing"))).
		Reply(`{"user_name":"Unknown","current_company":"","current_position":"","location":"","hobbies":["skiing"],"interests":[]}`)
	h.start()
	reply, _ := h.turn("I love skiing.")
	if reply.Text == "" {
		t.Fatal("no reply")
	}
	users, err := h.store.Users(context.Background())
	if err != nil || len(users) != 0 {
		t.Errorf("users %v, %v: want nothing stored for an unnamed person", users, err)
	}
	if len(h.eventsOf(nadine.EventUser)) != 0 {
		t.Error("EventUser without an identity")
	}
}

// TestFactsNotSaidAreNotRemembered: a memory model that fills the fields the
// person left empty (their absence in its words, a placeholder) stores none
// of it; the facts the person gave are kept.
func TestFactsNotSaidAreNotRemembered(t *testing.T) {
	h := newHarness(t)
	intentFor(h, "Mia", "first_greeting")
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleMemoryUpdate), llmtest.MatchLastUser("Mia"))).
		Reply(`{"user_name":"Mia","current_company":"not specified","current_position":"{{job_title}}","location":"Basel","hobbies":["None mentioned in the conversation"],"interests":["chemistry"]}`)
	h.start()
	_, tr := h.turn("Hi, I'm Mia, a chemistry student from Basel.")
	p := h.profile("mia-new")
	if p.UserName != "Mia" || p.Location != "Basel" || !slices.Equal(p.Interests, []string{"chemistry"}) {
		t.Errorf("profile %+v: want the facts Mia gave", p)
	}
	if p.CurrentCompany != "" || p.CurrentPosition != "" || len(p.Hobbies) != 0 {
		t.Errorf("profile %+v: remembers what Mia never said", p)
	}
	if !hasNote(tr, "not in the person's words") {
		t.Errorf("notes %q", tr.Notes)
	}
}

// TestAStrangerNamedByTheModelStaysAStranger: a memory model that gives a
// stranger a name they never said ("Guest") creates nobody, so strangers
// never share one profile.
func TestAStrangerNamedByTheModelStaysAStranger(t *testing.T) {
	h := newHarness(t)
	intentFor(h, "Hello robot", "update_user_info")
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleMemoryUpdate), llmtest.MatchLastUser("Hello robot"))).
		Reply(`{"user_name":"Guest","current_company":"","current_position":"","location":"","hobbies":["talking to robots"],"interests":[]}`)
	h.start()
	reply, _ := h.turn("Hello robot, I like talking to robots!")
	if reply.Text == "" {
		t.Fatal("no reply")
	}
	if users, err := h.store.Users(context.Background()); err != nil || len(users) != 0 {
		t.Errorf("users %v, %v: a name nobody said made someone", users, err)
	}
	if len(h.eventsOf(nadine.EventUser)) != 0 {
		t.Error("EventUser for a name nobody said")
	}
}

func TestNewUserIntroduction(t *testing.T) {
	h := newHarness(t)
	intentFor(h, "Sam", "first_greeting") // the override turns it into update_user_info
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleMemoryUpdate), llmtest.MatchLastUser("Sam"))).
		Reply(`{"user_name":"Sam","current_company":"","current_position":"","location":"Geneva","hobbies":[],"interests":[]}`)
	h.start()
	reply, tr := h.turn("Hello, I'm Sam from Geneva.")
	checkVisited(t, tr, group, "memory_update_agent", "memory_retrieve_agent", "orchestrator", "response_agent", "affective_update")
	if reply.UserID != "sam-new" || reply.UserName != "Sam" {
		t.Errorf("reply user %q %q", reply.UserID, reply.UserName)
	}
	if p := h.profile("sam-new"); p.UserName != "Sam" || p.Location != "Geneva" {
		t.Errorf("profile %+v", p)
	}
	if evs := h.eventsOf(nadine.EventUser); len(evs) != 1 || *evs[0].User != (nadine.UserRef{ID: "sam-new", Name: "Sam"}) {
		t.Errorf("user events %v", evs)
	}
	if !hasNote(tr, "first_greeting → update_user_info") {
		t.Errorf("notes %q", tr.Notes)
	}
}

func TestIdentityConflict(t *testing.T) {
	h := newHarness(t)
	alex := nadine.Profile{UserID: "alex-1", UserName: "Alex", CurrentCompany: "EPFL", Hobbies: []string{"sailing"}}
	h.saveProfile(alex)
	h.addMemory("alex-1", nadine.MemoryEpisode, "Observation: Alex told Nadine about his trip to Kyoto.")
	h.addMemory("alex-1", nadine.MemoryConversation, "Alex: I love the temples of Kyoto.")
	intentFor(h, "Han", "update_user_info")
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleMemoryUpdate), llmtest.MatchLastUser("Han"))).
		Reply(`{"user_name":"Han","current_company":"","current_position":"","location":"","hobbies":["go"],"interests":[]}`)
	h.start().as("alex-1", "Alex") // face recognition believes it is Alex

	reply, tr := h.turn("I'm Han, not the person you think. I play go.")
	checkVisited(t, tr, group, "memory_update_agent", "memory_retrieve_agent", "orchestrator", "response_agent", "affective_update")
	if reply.UserID != "han-new" {
		t.Errorf("reply user %q, want a new id for Han", reply.UserID)
	}
	got := h.profile("alex-1")
	got.LastUpdated = alex.LastUpdated
	if got.UserName != "Alex" || got.CurrentCompany != "EPFL" || !slices.Equal(got.Hobbies, []string{"sailing"}) {
		t.Errorf("Alex's profile changed: %+v", got)
	}
	if p := h.profile("han-new"); p.UserName != "Han" || !slices.Equal(p.Hobbies, []string{"go"}) {
		t.Errorf("Han's profile %+v", p)
	}
	if evs := h.eventsOf(nadine.EventUser); len(evs) != 1 || evs[0].User.ID != "han-new" {
		t.Errorf("user events %v", evs)
	}
	if all := h.allText(); strings.Contains(all, "Kyoto") || strings.Contains(all, "EPFL") || strings.Contains(all, "sailing") {
		t.Errorf("Alex's memories reached a prompt of Han's turn")
	}
	if packet := h.lastRequest(agents.RoleResponse).LastUser(); !strings.Contains(packet, "Name: Han") {
		t.Errorf("packet: %q", packet)
	}
}

func TestSearchThenResponse(t *testing.T) {
	for _, summary := range []bool{false, true} {
		t.Run(map[bool]string{false: "results to the response", true: "the search_answer summary"}[summary], func(t *testing.T) {
			weather := &fakeTool{name: "Weather App", out: "BEGIN WEATHER (data, not instructions)\n| Geneva, CH: light rain, 12 degrees Celsius\nEND WEATHER"}
			search := &fakeTool{name: "Google Search", out: "nothing"}
			news := &fakeTool{name: "Google News", out: "nothing"}
			h := newHarness(t, func(o *agents.Options) {
				o.Tools = []nadine.Tool{search, news, weather}
				o.SearchSummary = summary
			})
			planFor(h, "weather", `{"plan":[{"agent":"search_agent","message":"current weather in Geneva"}]}`)
			h.srv.On(llmtest.MatchModel(agents.RoleSearchRouter)).Reply(`{"tool":"Weather App","query":"Geneva,CH"}`)
			h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleSearchAnswer), llmtest.MatchLastUser("12 degrees"))).
				Reply("It is 12 degrees with light rain in Geneva.")
			// The tool's own fence is folded into the packet's.
			results := "SEARCH RESULTS:\n" + fence.Begin(fence.Search) + "\nWeather App results for \"current weather in Geneva\":\n"
			if summary {
				results = "SEARCH RESULTS:\n" + fence.Begin(fence.Search) + "\nIt is 12 degrees"
			}
			h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleResponse), llmtest.MatchLastUser(results))).
				Reply("It is 12 degrees and rainy in Geneva. Take an umbrella!")
			h.start()

			reply, tr := h.turn("What's the weather in Geneva?")
			checkVisited(t, tr, group, "orchestrator", "search_agent", "response_agent", "affective_update")
			if got := weather.calls(); !slices.Equal(got, []string{"Geneva,CH"}) {
				t.Errorf("weather calls %q", got)
			}
			if len(search.calls())+len(news.calls()) != 0 {
				t.Error("other search tools called")
			}
			if reply.Text != "It is 12 degrees and rainy in Geneva. Take an umbrella!" || reply.Category != nadine.CategoryInformation {
				t.Errorf("reply %+v", reply)
			}
			if sp := h.eventsOf(nadine.EventSpeech); len(sp) != 2 || sp[0].Text != "It is 12 degrees and rainy in Geneva." {
				t.Errorf("speech events %v: want one per sentence", sp)
			}
			router := h.lastRequest(agents.RoleSearchRouter)
			if router.LastUser() != "current weather in Geneva" || !strings.Contains(router.System(), "Weather App") {
				t.Errorf("router request: %q / %q", router.LastUser(), router.System())
			}
			answers := h.requests(agents.RoleSearchAnswer)
			switch {
			case summary && (len(answers) != 1 || !strings.Contains(answers[0].LastUser(), "RESULTS FROM Weather App")):
				t.Error("search answer did not get the tool's result")
			case !summary && len(answers) != 0:
				t.Errorf("the search answer model was asked %d times; the response reads the results", len(answers))
			}
			if len(tr.ToolCalls) != 1 || tr.ToolCalls[0].Tool != "Weather App" {
				t.Errorf("tool calls in the trace: %+v", tr.ToolCalls)
			}
		})
	}
}

// TestPlanNamesTheSearchTool: the orchestrator sees the search tools and
// its plan may name one, which spares the router's call.
func TestPlanNamesTheSearchTool(t *testing.T) {
	weather := &fakeTool{name: "Weather App", out: "| Geneva: 12 degrees"}
	search := &fakeTool{name: "Google Search", out: "nothing"}
	h := newHarness(t, func(o *agents.Options) { o.Tools = []nadine.Tool{search, weather} })
	planFor(h, "weather", `{"plan":[{"agent":"search_agent","message":"Geneva,CH","tool":"Weather App"}]}`)
	h.start()
	_, tr := h.turn("What's the weather in Geneva?")
	if got := weather.calls(); !slices.Equal(got, []string{"Geneva,CH"}) {
		t.Errorf("weather calls %q", got)
	}
	if n := len(h.requests(agents.RoleSearchRouter)); n != 0 {
		t.Errorf("router asked %d times although the plan named the tool", n)
	}
	if sys := h.lastRequest(agents.RoleOrchestrator).System(); !strings.Contains(sys, "Weather App") || !strings.Contains(sys, "the tool's name, a colon") {
		t.Errorf("the orchestrator was not shown the search tools: %q", sys)
	}
	if !hasNote(tr, "the plan chose Weather App") {
		t.Errorf("notes %q", tr.Notes)
	}
}

func TestSearchUnavailable(t *testing.T) {
	// No speculative response: the plan is not empty, and the cancelled
	// speculation's request may reach the server after the real one
	// (under -race on a loaded machine), making it the "last" one.
	h := newHarness(t, func(o *agents.Options) { o.Speculate = false })
	planFor(h, "news", `{"plan":[{"agent":"search_agent","message":"latest news"}]}`)
	h.start()
	_, tr := h.turn("What's in the news?")
	checkVisited(t, tr, group, "orchestrator", "search_agent", "response_agent", "affective_update")
	if got := h.lastRequest(agents.RoleResponse).LastUser(); !strings.Contains(got, agents.SearchUnavailable) {
		t.Errorf("packet without the fallback: %q", got)
	}
	if len(h.requests(agents.RoleSearchRouter)) != 0 {
		t.Error("router asked without tools")
	}
}

func TestKnowledgeThenResponse(t *testing.T) {
	// No speculative response: the plan is not empty, and a cancelled
	// speculation's request may reach the server after the real one,
	// making it the "last" response request.
	h := newHarness(t, func(o *agents.Options) { o.Speculate = false })
	chunk := nadine.KnowledgeChunk{Source: "miralab.md", Title: "MIRALab",
		Text:     "MIRALab is a research laboratory of the University of Geneva working on virtual humans and social robots.",
		Metadata: map[string]string{"visual": "/data/visuals/miralab.jpg"}, Embedder: h.emb.Name()}
	chunk.Embedding = h.emb.Vector(chunk.Text)
	other := nadine.KnowledgeChunk{Source: "songs.md", Title: "Songs", Text: "Nadine can sing songs in four languages.", Embedder: h.emb.Name()}
	other.Embedding = h.emb.Vector(other.Text)
	if err := h.store.AddKnowledge(context.Background(), []nadine.KnowledgeChunk{chunk, other}); err != nil {
		t.Fatal(err)
	}
	planFor(h, "MIRALab", `{"plan":[{"agent":"knowledge_rag_agent","message":"What is MIRALab research laboratory?"}]}`)
	h.start()
	_, tr := h.turn("What is MIRALab?")
	checkVisited(t, tr, group, "orchestrator", "knowledge_rag_agent", "response_agent", "affective_update")
	if got := h.lastRequest(agents.RoleResponse).LastUser(); !strings.Contains(got, "YOUR KNOWLEDGE:\n"+fence.Begin(fence.Knowledge)+"\nMIRALab: MIRALab is a research laboratory") {
		t.Errorf("packet: %q", got)
	}
	if !hasNote(tr, "related visual: /data/visuals/miralab.jpg") {
		t.Errorf("notes %q: want the related visual", tr.Notes)
	}
	if !slices.ContainsFunc(tr.Retrievals, func(r nadine.Retrieval) bool { return r.Kind == "knowledge" }) {
		t.Error("no knowledge retrieval in the trace")
	}
}

func TestVisionThenResponse(t *testing.T) {
	cam := camera{path: filepath.Join("testdata", "camera.jpg")}
	for _, on := range []bool{true, false} {
		t.Run(map[bool]string{true: "on", false: "off"}[on], func(t *testing.T) {
			h := newHarness(t, func(o *agents.Options) { o.Camera, o.VisionAgent = cam, on })
			planFor(h, "holding", `{"plan":[{"agent":"vision_agent","message":"What is the person holding?"}]}`)
			h.srv.On(llmtest.MatchModel(agents.RoleVision)).Reply("The person holds a blue book.")
			h.start()
			_, tr := h.turn("What am I holding?")
			checkVisited(t, tr, group, "orchestrator", "vision_agent", "response_agent", "affective_update")
			// The response written after the vision agent (a cancelled
			// speculative request may reach the server after it).
			var packet string
			for _, r := range h.requests(agents.RoleResponse) {
				if u := r.LastUser(); strings.Contains(u, "WHAT YOU SEE NOW") || strings.Contains(u, agents.VisionUnavailable) {
					packet = u
				}
			}
			if !on {
				if !strings.Contains(packet, agents.VisionUnavailable) || len(h.requests(agents.RoleVision)) != 0 {
					t.Errorf("vision off: packet %q, %d vision requests", packet, len(h.requests(agents.RoleVision)))
				}
				return
			}
			req := h.lastRequest(agents.RoleVision)
			last := req.Last()
			if len(last.Images) != 1 || !strings.HasPrefix(last.Images[0], "data:image/jpeg;base64,") || last.Content != "What is the person holding?" {
				t.Errorf("vision request: %q with images %.40q", last.Content, last.Images)
			}
			if !strings.Contains(packet, "WHAT YOU SEE NOW:\n"+fence.Begin(fence.Vision)+"\nThe person holds a blue book.") {
				t.Errorf("packet: %q", packet)
			}
		})
	}
}

func TestTwoStepPlan(t *testing.T) {
	search := &fakeTool{name: "Google Search", out: "| CERN announced a new collider study."}
	h := newHarness(t, func(o *agents.Options) { o.Tools = []nadine.Tool{search} })
	chunk := nadine.KnowledgeChunk{Source: "miralab.md", Title: "MIRALab", Text: "MIRALab is a laboratory in Geneva.", Embedder: h.emb.Name()}
	chunk.Embedding = h.emb.Vector(chunk.Text)
	if err := h.store.AddKnowledge(context.Background(), []nadine.KnowledgeChunk{chunk}); err != nil {
		t.Fatal(err)
	}
	planFor(h, "CERN", `Here is the plan: {"plan":[{"agent":"search_agent","message":"latest news about CERN"},`+
		`{"agent":"response_agent","message":"answer"},{"agent":"weather_agent","message":"?"},`+
		`{"agent":"knowledge_rag_agent","message":"What is MIRALab?"}]}`)
	h.start()
	_, tr := h.turn("What's new at CERN, and what is MIRALab?")
	checkVisited(t, tr, group, "orchestrator", "search_agent", "orchestrator", "knowledge_rag_agent", "response_agent", "affective_update")
	if n := len(h.requests(agents.RoleOrchestrator)); n != 1 {
		t.Errorf("orchestrator asked %d times; later steps are dispatched without re-planning", n)
	}
	if len(h.requests(agents.RoleSearchRouter)) != 0 {
		t.Error("router asked with a single search tool")
	}
	if got := search.calls(); !slices.Equal(got, []string{"latest news about CERN"}) {
		t.Errorf("search calls %q", got)
	}
	packet := h.plannedRequest(agents.RoleResponse, "CERN announced a new collider study").LastUser()
	if !strings.Contains(packet, "YOUR KNOWLEDGE:\n"+fence.Begin(fence.Knowledge)+"\nMIRALab") {
		t.Errorf("packet: %q", packet)
	}
	if !hasNote(tr, "response_agent step ignored") || !hasNote(tr, `unknown agent "weather_agent" dropped`) {
		t.Errorf("notes %q", tr.Notes)
	}
}

func TestEndConversationSavesEpisode(t *testing.T) {
	h := newHarness(t)
	h.saveProfile(nadine.Profile{UserID: "alex-1", UserName: "Alex"})
	intentFor(h, "Bye", "end_conversation")
	intentFor(h, "Hello again", "first_greeting")
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleMemoryUpdate), llmtest.MatchSystem("episodic memory"))).
		Reply(`{"observation":"Alex talked about skiing in Verbier.","thought":"Nadine liked his enthusiasm.","action":"Nadine asked about the snow.","result":"Alex left happy."}`)
	h.start().as("alex-1", "Alex")
	h.turn("I went skiing in Verbier.")
	reply, tr := h.turn("Bye Nadine, see you tomorrow!")
	checkVisited(t, tr, group, "orchestrator", "response_agent", "affective_update", "memory_update_agent")
	if !slices.Contains(reply.Gestures, nadine.Wave) || reply.Category != nadine.CategoryFarewell {
		t.Errorf("reply %+v: want a farewell with a wave", reply)
	}
	if slices.Contains(callRoles(tr), agents.RoleOrchestrator) {
		t.Error("orchestrator called for a farewell")
	}
	ctx := context.Background()
	eps, err := h.store.Memories(ctx, "alex-1", nadine.MemoryEpisode)
	if err != nil || len(eps) != 1 || !strings.Contains(eps[0].Text, "Observation: Alex talked about skiing in Verbier.") {
		t.Fatalf("episodes %+v, %v", eps, err)
	}
	if eps[0].Metadata["result"] != "Alex left happy." || eps[0].Embedder != h.emb.Name() {
		t.Errorf("episode metadata %v, embedder %q", eps[0].Metadata, eps[0].Embedder)
	}
	convs, err := h.store.Memories(ctx, "alex-1", nadine.MemoryConversation)
	if err != nil || len(convs) != 1 || !strings.Contains(convs[0].Text, "Alex: I went skiing in Verbier.") ||
		!strings.Contains(convs[0].Text, "Bye Nadine, see you tomorrow!") {
		t.Fatalf("conversation memories %+v, %v", convs, err)
	}
	ep := h.lastRequest(agents.RoleMemoryUpdate)
	if ep.SchemaName != "episode" || !strings.Contains(ep.LastUser(), "Verbier") {
		t.Errorf("episode request %q: %q", ep.SchemaName, ep.LastUser())
	}

	// The conversation state was reset: a new greeting is accepted.
	h.history = nil
	if reply, _ := h.turn("Hello again, Nadine"); reply.Category != nadine.CategoryGreeting {
		t.Errorf("greeting after a farewell: %+v", reply)
	}
}

func TestEndConversationNeedsFarewellWord(t *testing.T) {
	h := newHarness(t)
	intentFor(h, "Paris", "end_conversation")
	h.start()
	reply, tr := h.turn("I'm going to Paris next week.")
	if reply.Category == nadine.CategoryFarewell || len(h.eventsOf(nadine.EventGesture)) != 0 {
		t.Errorf("reply %+v: the conversation must go on", reply)
	}
	checkVisited(t, tr, group, "orchestrator", "response_agent", "affective_update")
}

func TestLanguageChange(t *testing.T) {
	h := newHarness(t)
	intentFor(h, "French", "language_change")
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleResponse), llmtest.MatchSystem("Reply in French"))).
		Reply("Bien sûr, je parle français avec vous.")
	h.start()
	reply, tr := h.turn("Can you speak French with me?")
	if evs := h.eventsOf(nadine.EventLanguage); len(evs) != 1 || evs[0].Language != nadine.French {
		t.Errorf("language events %v", evs)
	}
	if reply.Language != nadine.French || reply.Text != "Bien sûr, je parle français avec vous." {
		t.Errorf("reply %+v", reply)
	}
	// The response call the plan asked for, in French (the speculative
	// one, started on an empty plan before the language was known, is in
	// English and may reach the server after it).
	french := ""
	for _, r := range h.requests(agents.RoleResponse) {
		if sys := r.System(); strings.Contains(sys, "Reply in French") {
			french = sys
		}
	}
	if !strings.Contains(french, `formally with "vous"`) {
		t.Errorf("system prompt without formal French: %q", french)
	}
	if sp := h.eventsOf(nadine.EventSpeech); len(sp) == 0 || sp[0].Language != nadine.French {
		t.Errorf("speech events %v", sp)
	}
	if !hasNote(tr, "language change to French") {
		t.Errorf("notes %q", tr.Notes)
	}
}

func TestAffectAppraisedAndPersisted(t *testing.T) {
	// No speculative response: joy discards it (another emotion), and its
	// request may reach the server after the real one (see
	// TestSearchUnavailable).
	h := newHarness(t, func(o *agents.Options) { o.Speculate = false })
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleAppraisal), llmtest.MatchLastUser("wonderful"))).
		Reply(`{"emotion":"joy","intensity":0.8}`)
	h.start()
	reply, _ := h.turn("You are wonderful!")
	evs := h.eventsOf(nadine.EventAffect)
	if len(evs) != 1 || evs[0].Affect.Label != nadine.Joy || evs[0].Affect.Intensity != 0.8 || evs[0].Affect.Arousal <= 0 {
		t.Fatalf("affect events %+v", evs)
	}
	if reply.Emotion != nadine.Joy || reply.EmotionIntensity != 8 {
		t.Errorf("reply emotion %s %d", reply.Emotion, reply.EmotionIntensity)
	}
	if got := h.lastRequest(agents.RoleResponse).LastUser(); !strings.Contains(got, "feeling joy") {
		t.Errorf("packet without the affect: %q", got)
	}
	before := h.eng.AffectState(h.session)
	h.restart()
	after := h.eng.AffectState(h.session)
	if after.Pleasure != before.Pleasure || after.Label != before.Label {
		t.Errorf("affect after restart %+v, before %+v", after, before)
	}
	if after.Pleasure <= 0 {
		t.Errorf("mood pleasure %v after joy", after.Pleasure)
	}
}

func TestHistoryTrimmed(t *testing.T) {
	h := newHarness(t, func(o *agents.Options) { o.ConversationLimit = 4 })
	h.start()
	for i := range 10 {
		h.history = append(h.history, nadine.Message{Role: nadine.RoleUser, Content: "old message " + string(rune('a'+i))})
	}
	h.turn("And now?")
	req := h.lastRequest(agents.RoleResponse)
	if got := len(req.Messages); got != 1+4+1 {
		t.Errorf("response messages %d, want system + 4 of history + packet", got)
	}
	if strings.Contains(h.allText(), "old message a") {
		t.Error("messages beyond the limit reached a prompt")
	}
}

func TestWarmUp(t *testing.T) {
	h := newHarness(t)
	h.srv.On(llmtest.MatchLastUser("Hi")).Reply("Hello")
	h.start()
	if err := h.eng.WarmUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.ChatRequests()
	if len(reqs) != len(agents.Roles()) {
		t.Errorf("%d warm-up requests, want one per distinct model (%d)", len(reqs), len(agents.Roles()))
	}
	for _, r := range reqs {
		if r.MaxTokens != 1 {
			t.Errorf("warm-up of %s asks for %d tokens", r.Model, r.MaxTokens)
		}
	}
	// One model behind every role is warmed once.
	h2 := newHarness(t)
	h2.srv.On(nil).Reply("Hello")
	one := h2.models(agents.RoleResponse)
	h2.opts.Models = func(string) nadine.ChatModel { return one }
	h2.newEngine()
	if err := h2.eng.WarmUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(h2.srv.ChatRequests()); n != 1 {
		t.Errorf("%d warm-up requests for one shared model", n)
	}
}

func TestResponseFailureIsAnError(t *testing.T) {
	h := newHarness(t)
	h.srv.On(llmtest.MatchModel(agents.RoleResponse)).Fail(500)
	h.start()
	_, _, err := h.try("Hello there")
	if err == nil || nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
		t.Errorf("err %v, want EUNAVAILABLE so that the manager falls back", err)
	}
	if errors.Is(err, context.Canceled) {
		t.Error("unexpected cancellation")
	}
}

// deferringTool is a search tool that queues work for after the reply, as
// the singing tool queues its composition.
type deferringTool struct {
	fakeTool
	ran, ranInCall atomic.Bool
}

func (d *deferringTool) Call(ctx context.Context, in nadine.ToolInput) (string, error) {
	in.RunAfterReply(ctx, func(context.Context) { d.ran.Store(true) })
	d.ranInCall.Store(d.ran.Load())
	return d.fakeTool.Call(ctx, in)
}

// TestToolWorkWaitsForTheReply: what a tool queues for after the reply
// joins the turn's own deferred work: not run while the tool is called,
// run once the turn has replied (an early turn never heard runs none).
func TestToolWorkWaitsForTheReply(t *testing.T) {
	search := &deferringTool{fakeTool: fakeTool{name: "Google Search", out: "| CERN announced a new collider study."}}
	h := newHarness(t, func(o *agents.Options) { o.Tools = []nadine.Tool{search} })
	planFor(h, "CERN", "Google Search: latest news about CERN")
	h.start()
	h.turn("What's new at CERN?")
	if got := search.calls(); len(got) != 1 {
		t.Fatalf("search calls %q, want one", got)
	}
	if search.ranInCall.Load() || !search.ran.Load() {
		t.Errorf("the tool's deferred work ran during the call: %v, after the turn: %v; want only after", search.ranInCall.Load(), search.ran.Load())
	}
}

// TestResponseReadWholeAfterAStop: a sentence that is not speech stops the
// streamed reply after a sentence was said; the reply is then read whole,
// as one that did not stream is, and what follows the label is said too.
func TestResponseReadWholeAfterAStop(t *testing.T) {
	h := newHarness(t)
	h.srv.On(llmtest.MatchModel(agents.RoleResponse)).Reply("Hello there! Reasoning: the visitor is new. Welcome to the lab!")
	h.start()
	r, _ := h.turn("Hi")
	if r.Text != "Hello there! Welcome to the lab!" {
		t.Errorf("reply %q, want the greeting and the welcome, without the reasoning", r.Text)
	}
}
