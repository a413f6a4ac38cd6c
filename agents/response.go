package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
	"github.com/nadine-robot/nadine/answer"
	"github.com/nadine-robot/nadine/fence"
	"github.com/nadine-robot/nadine/labels"
	"github.com/nadine-robot/nadine/speakable"
	"github.com/nadine-robot/nadine/spoken"
)

// responder is the response_agent node: the reply streamed sentence by
// sentence, and its speculative start (speculate.go).
type responder struct {
	model   nadine.ChatModel // role response (required)
	prompts prompts
	// static is every text the response prompt can hold, without data
	// (staticResponsePrompt): the echo check knows them all.
	static nadine.Prompt
	// gates prepares the prompts for the check once.
	gates       *speakable.Cache
	now         func() time.Time
	scenes      nadine.SceneRetriever // reads a recalled scene's picture; nil: none
	speculating bool                  // Options.Speculate, off in the sequential wiring
}

// respond is the response_agent node: a pending name question is a fixed
// sentence (exact and immediate), else the streamed, checked reply.
func (r *responder) respond(ctx context.Context, s State) (State, error) {
	t := s.live
	s.PlanSteps = nil
	if s.confirmationPending() {
		if sp := t.takeSpeculation(); sp != nil {
			sp.settle(false, "a name question")
		}
		q := confirmQuestion(s.Language, s.NameConfirmation.SimilarNames[0])
		t.send(nadine.Event{Kind: nadine.EventSpeech, Text: q, Language: s.Language})
		s.FinalMessage = q
		return s, nil
	}
	if s.Intent == IntentFirstGreeting || s.Intent == IntentEndConversation {
		t.send(nadine.Event{Kind: nadine.EventGesture, Gesture: nadine.Wave})
	}
	text, err, kept := r.speculated(ctx, s)
	if !kept {
		text, err = r.speakResponse(ctx, t.send, s.Language, nadine.ChatRequest{Role: RoleResponse, Messages: r.responseMessages(ctx, s)}, nil)
	}
	if err != nil {
		return s, err
	}
	s.FinalMessage = text
	s.ConversationMemory, s.EpisodeMemory = "", ""
	s.SearchResults, s.VisionResults, s.KnowledgeRetrieval = "", "", ""
	return s, nil
}

// speculated settles the turn's speculation against s: a kept one's reply,
// once its call has ended, with kept=true.
func (r *responder) speculated(ctx context.Context, s State) (string, error, bool) {
	sp := s.live.takeSpeculation()
	if sp == nil {
		return "", nil, false
	}
	keep, reason := r.matches(ctx, sp, s)
	sp.settle(keep, reason)
	if !keep {
		return "", nil, false
	}
	text, err := sp.wait()
	return text, err, true
}

// responseKeys hold the reply of a response model that answered in JSON.
var responseKeys = []string{"response", "reply", "text", "answer", "message", "content", "speech", "say", "output"}

// notSpeechFeedback is what a response model hears after an answer that
// could not be spoken.
const notSpeechFeedback = "Your last answer could not be spoken (%v). Answer the person again, as Nadine, in plain spoken sentences only: no JSON, no markup, no lists, no code."

// speakResponse speaks each sentence that passes the gate; a reply with no
// speech is asked once more, then EBADOUTPUT so the manager falls back.
func (r *responder) speakResponse(ctx context.Context, send nadine.EmitFunc, lang nadine.Language, req nadine.ChatRequest, onDelta func(string)) (string, error) {
	tr := nadine.TraceFrom(ctx)
	m := r.model
	pr := recordedPrompt(req.Messages)
	for attempt := 1; ; attempt++ {
		tr.AddPrompt(r.static)
		tr.AddPrompt(pr)
		gate := r.gates.New([]nadine.Prompt{r.static, pr})
		var saidSoFar []string
		say := func(sents []string) {
			for _, sent := range sents {
				saidSoFar = append(saidSoFar, sent)
				send(nadine.Event{Kind: nadine.EventSpeech, Text: sent, Language: lang})
			}
		}
		stream := spoken.Stream{Check: gate.Check(lang), Whole: gate.Whole(lang)}
		resp, err := m.ChatStream(ctx, req, func(delta string) {
			if onDelta != nil {
				onDelta(delta)
			}
			say(stream.Write(delta))
		})
		say(stream.Flush())
		if held := stream.Held(); held != nil && len(saidSoFar) > 0 && err == nil {
			// The stream stopped after a sentence of prose: at a JSON
			// answer ("Sure! {"response": …}"), whose reply is said too,
			// or at a sentence that is not speech (a label, a marker, an
			// aside), after which the reply is read whole, as when the
			// stream stops at once, and what it keeps is said.
			text, what := jsonReply(resp.Content), "the reply in the JSON"
			if text == "" {
				text, what = resp.Content, "the whole reply"
			}
			if said, _, serr := gate.Reply(text, lang); serr == nil {
				tr.Notef("response_agent: %s after the first sentences was read", what)
				say(spoken.Unsaid(said, saidSoFar))
			}
		}
		if len(saidSoFar) > 0 {
			if err != nil {
				tr.Fail("response_agent", err)
				tr.Notef("response_agent: the reply broke off after %d sentences", len(saidSoFar))
			}
			if held := stream.Held(); held != nil {
				tr.Notef("response_agent: the rest of the reply was not said: %v", held)
			}
			return strings.Join(saidSoFar, " "), nil
		}
		if err != nil {
			return "", fmt.Errorf("agents: response: %w", err)
		}
		whole := resp.Content
		if text := jsonReply(whole); text != "" {
			whole = text // a reply in JSON, fenced or within prose: its text
		} else if t := strings.TrimSpace(spoken.StripThinking(whole)); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") || strings.HasPrefix(t, "```json") {
			// JSON without a reply: the words around it (a search's call
			// before the reply in prose), else nothing; a code block stays
			// code.
			whole = answer.Read(whole).Prose
		}
		said, dropped, serr := gate.Reply(whole, lang)
		if serr == nil {
			tr.Notef("response_agent: the reply was read whole (%d sentence(s) not speech)", len(dropped))
			say(spoken.SplitSentences(said))
			return said, nil
		}
		tr.Fail("response_agent", serr)
		if attempt > 1 || ctx.Err() != nil {
			return "", nadine.Errorf(nadine.EBADOUTPUT, "agents: response: the model's answer is not a reply: %v", serr)
		}
		feedback := fmt.Sprintf(notSpeechFeedback, serr)
		pr.Instructions = append(slices.Clone(pr.Instructions), feedback)
		req.Messages = append(slices.Clone(req.Messages),
			nadine.ChatMessage{Role: nadine.RoleAssistant, Content: resp.Content},
			nadine.ChatMessage{Role: nadine.RoleUser, Content: feedback})
	}
}

// jsonReply returns the reply a response model wrote in JSON (fenced,
// within prose, with the defects package answer reads), or "". The reply is
// the field whose name says so, in any value and any of Nadine's languages
// (labels.Reply: {"antwort": …, "quelle": …}, a speak call's arguments, the
// assistant's message of a transcript), before any other reading: a
// ReAct final answer (the other engine's format, which models write from
// habit), a list of sentences, and an object whose one member is prose and
// not named as an aside ({"réponse": "…"}, but not {"thought": "…"}).
func jsonReply(content string) string {
	values := answer.Read(content).Values
	for _, v := range values {
		if t := strings.TrimSpace(labels.Reply(v.JSON, responseKeys...)); t != "" {
			return t
		}
	}
	for _, v := range values {
		if t := proseItems(v.JSON); t != "" {
			return t
		}
		f, ok := labels.Fields(v.JSON)
		if !ok {
			continue
		}
		if action, ok := labels.Get(f, "action"); ok {
			if a, _ := labels.String(action); answer.IsFinalLabel(strings.ToLower(strings.TrimSpace(a))) {
				if in, ok := labels.Get(f, "action_input"); ok {
					if t, _ := labels.String(in); strings.TrimSpace(t) != "" {
						return strings.TrimSpace(t)
					}
				}
			}
			continue // a tool's call holds no reply
		}
		if len(f) != 1 {
			continue
		}
		for name := range f {
			if t := strings.TrimSpace(labels.Text(v.JSON)); prose(t) && !answer.NamesAside(name) {
				return t
			}
		}
	}
	return ""
}

// proseItems returns the items of a list of strings that read as prose,
// one a line ("TIME: 10:05" is not one), or "".
func proseItems(raw json.RawMessage) string {
	var items []string
	if json.Unmarshal(raw, &items) != nil {
		return ""
	}
	var said []string
	for _, it := range items {
		if t := strings.TrimSpace(it); prose(t) {
			said = append(said, t)
		}
	}
	return strings.Join(said, "\n")
}

// prose reports whether a JSON string reads as a sentence said rather than
// a value ("assistant", "Nadine robot" as a search's query): words ending
// with a sentence's end.
func prose(t string) bool {
	t = strings.TrimRight(t, "\"' ")
	if t == "" || !strings.ContainsAny(t[len(t)-1:], ".!?") && !strings.HasSuffix(t, "。") && !strings.HasSuffix(t, "！") && !strings.HasSuffix(t, "？") {
		return false
	}
	if strings.Contains(t, " ") {
		return true
	}
	han := 0
	for _, r := range t {
		if unicode.Is(unicode.Han, r) {
			han++
		}
	}
	return han >= 2
}

// staticResponsePrompt renders every text the response prompt can hold without
// data, for the echo check of what is spoken.
func staticResponsePrompt(p prompts) nadine.Prompt {
	person, _ := fence.Block(fence.Person, []string{"Name: -", "What you know about them: -", "Facial expression: -", "Note: -"}, 0)
	pr := recordedPrompt([]nadine.ChatMessage{
		{Role: nadine.RoleSystem, Content: p.render("response_system", responsePrompt{Language: "English", Formal: true})},
		{Role: nadine.RoleUser, Content: p.render("response_packet", packet{Greeting: true, Farewell: true, Named: true, Person: person,
			Episode: " ", Conversation: " ", Visual: " ", Search: " ", Vision: " ", Knowledge: " "})},
	})
	pr.Instructions = append(pr.Instructions, notSpeechFeedback)
	pr.Said = nil
	return pr
}

// recordedPrompt is what the graph wrote into a response request (persona
// and packet, not the chat history), for the echo check of what is spoken.
func recordedPrompt(msgs []nadine.ChatMessage) nadine.Prompt {
	pr := nadine.Prompt{Role: RoleResponse}
	if len(msgs) == 0 {
		return pr
	}
	sys := msgs[0].Content
	pr.Instructions = append(pr.Instructions, sys)
	if persona, _, ok := strings.Cut(sys, "\n\n"); ok {
		pr.Persona = append(pr.Persona, persona)
	}
	if len(msgs) > 1 {
		packet := msgs[len(msgs)-1].Content
		pr.Instructions = append(pr.Instructions, packet)
		if i := strings.LastIndex(packet, "MESSAGE: "); i >= 0 {
			pr.Said = append(pr.Said, strings.TrimSpace(packet[i+len("MESSAGE: "):]))
		}
	}
	return pr
}

// responsePrompt fills the response's system prompt.
type responsePrompt struct {
	Language string
	Formal   bool
}

// packet fills the response's user message; its Person to Knowledge fields
// are fenced data sections, since they come from outside the rules.
type packet struct {
	Date, Time, Affect                 string
	Greeting, Farewell, Named          bool
	Person, Episode, Conversation      string
	Visual, VisualDate                 string
	Search, Vision, Knowledge, Message string
}

// responseMessages builds the response request: persona and rules, the
// window, and the packet (with the visual memory's picture), dated now.
func (r *responder) responseMessages(ctx context.Context, s State) []nadine.ChatMessage {
	return r.responseMessagesAt(ctx, s, r.now())
}

// responseMessagesAt is responseMessages dated now.
func (r *responder) responseMessagesAt(ctx context.Context, s State, now time.Time) []nadine.ChatMessage {
	msgs := []nadine.ChatMessage{{Role: nadine.RoleSystem, Content: r.prompts.render("response_system",
		responsePrompt{Language: s.Language.Or(nadine.DefaultLanguage).Name(), Formal: s.Language == nadine.French})}}
	for _, m := range s.history() {
		if m.Role == nadine.RoleUser || m.Role == nadine.RoleAssistant {
			msgs = append(msgs, nadine.ChatMessage{Role: m.Role, Content: m.Content})
		}
	}
	pk, images := r.packet(ctx, s, now)
	return append(msgs, nadine.ChatMessage{Role: nadine.RoleUser, Content: r.prompts.render("response_packet", pk), Images: images})
}

func (r *responder) packet(ctx context.Context, s State, now time.Time) (packet, []string) {
	conversation := s.ConversationMemory
	if heldInWindow(conversation, s.Messages) {
		// Every line of it is in the conversation the prompt carries: it
		// tells the response nothing new (and a speculation started
		// before the search stays valid).
		conversation = ""
	}
	pk := packet{
		Date:         now.Format("Monday, 2 January 2006"),
		Time:         now.Format("15:04"),
		Affect:       affect.Describe(s.Affect),
		Greeting:     s.Intent == IntentFirstGreeting,
		Farewell:     s.Intent == IntentEndConversation,
		Episode:      dataSection(fence.Episode, s.EpisodeMemory),
		Conversation: dataSection(fence.Conversation, conversation),
		Search:       dataSection(fence.Search, s.SearchResults),
		Vision:       dataSection(fence.Vision, s.VisionResults),
		Knowledge:    dataSection(fence.Knowledge, s.KnowledgeRetrieval),
		Message:      s.latest(),
	}
	var person []string
	if s.UserInfo.Known() {
		pk.Named = true
		person = append(person, "Name: "+fence.Clean(s.UserInfo.Name))
		if p := s.UserInfo.Profile; p != nil && p.UserID == s.UserInfo.ID {
			if d := describeProfile(*p); d != "" {
				person = append(person, "What you know about them: "+fence.Clean(d))
			}
		}
	}
	if s.UserEmotion != "" && s.UserEmotion != "neutral" {
		person = append(person, "Facial expression: "+fence.Clean(s.UserEmotion))
	}
	if s.AssistantNote != "" {
		person = append(person, "Note: "+fence.Clean(s.AssistantNote))
	}
	if len(person) > 0 {
		pk.Person, _ = fence.Block(fence.Person, person, 0)
	}
	var images []string
	if v := s.VisualMemory; v != nil {
		desc := strings.TrimSpace(v.Description)
		if desc == "" {
			desc = "a scene you remember with them"
		}
		pk.Visual = fence.Text(fence.Visual, desc)
		if !v.Time.IsZero() {
			pk.VisualDate = v.Time.Format("2 January 2006")
		}
		if img, err := r.sceneImage(ctx, v.ImagePath); err == nil {
			images = append(images, img.DataURL())
		} else {
			nadine.TraceFrom(ctx).Fail("visual_memory", err)
		}
	}
	return pk, images
}

// heldInWindow reports whether a conversation memory only repeats messages
// of window, which the response reads anyway.
func heldInWindow(memory string, window []nadine.Message) bool {
	if strings.TrimSpace(memory) == "" || len(window) == 0 {
		return false
	}
	said := make(map[string]bool, len(window))
	for _, m := range window {
		said[lineWords(m.Content)] = true
	}
	for _, line := range strings.Split(memory, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if !said[lineWords(transcriptText(line))] {
			return false
		}
	}
	return true
}

// transcriptText is a transcript line without its "[date time] " stamp
// and "Speaker: " name.
func transcriptText(line string) string {
	line = strings.TrimSpace(line)
	if strings.HasPrefix(line, "[") {
		if i := strings.Index(line, "] "); i > 0 {
			line = line[i+2:]
		}
	}
	if i := strings.Index(line, ": "); i > 0 && i <= 40 && !strings.ContainsAny(line[:i], ".!?") {
		line = line[i+2:]
	}
	return line
}

// lineWords is text lowercased, its runs of white space one space.
func lineWords(text string) string { return strings.ToLower(strings.Join(strings.Fields(text), " ")) }

// dataSection fences text from outside as the named data section; empty
// text has none.
func dataSection(n fence.Name, text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	return fence.Text(n, text)
}

// describeProfile renders a profile's facts for the packet.
func describeProfile(p nadine.Profile) string {
	var parts []string
	switch {
	case p.CurrentPosition != "" && p.CurrentCompany != "":
		parts = append(parts, "works as "+p.CurrentPosition+" at "+p.CurrentCompany)
	case p.CurrentCompany != "":
		parts = append(parts, "works at "+p.CurrentCompany)
	case p.CurrentPosition != "":
		parts = append(parts, "works as "+p.CurrentPosition)
	}
	if p.Location != "" {
		parts = append(parts, "lives in "+p.Location)
	}
	if len(p.Hobbies) > 0 {
		parts = append(parts, "hobbies: "+strings.Join(p.Hobbies, ", "))
	}
	if len(p.Interests) > 0 {
		parts = append(parts, "interests: "+strings.Join(p.Interests, ", "))
	}
	return strings.Join(parts, "; ")
}

// sceneImage reads the picture of a recalled scene through the scene
// retriever (Options.Visual).
func (r *responder) sceneImage(ctx context.Context, path string) (nadine.Image, error) {
	if r.scenes == nil {
		return nadine.Image{}, nadine.Errorf(nadine.EINVALID, "agents: no scene retriever to read %s", path)
	}
	return r.scenes.Image(ctx, path)
}
