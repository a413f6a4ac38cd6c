package agents

import (
	"context"
	"fmt"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
	"github.com/nadine-robot/nadine/fence"
	"github.com/nadine-robot/nadine/visual"
)

// respond is the response_agent node. With a pending name confirmation it
// asks "Is your name Alice?" (a fixed sentence in the session language: no
// model call, so the question is exact and immediate). Otherwise it streams
// the response model's reply over the composite packet, emitting each
// sentence as soon as it is complete, and resets the per-turn results.
func (e *Engine) respond(ctx context.Context, s State) (State, error) {
	sc := scopeFrom(ctx)
	s.PlanSteps = nil
	if s.confirmationPending() {
		q := confirmQuestion(s.Language, s.NameConfirmation.SimilarNames[0])
		sc.send(nadine.Event{Kind: nadine.EventSpeech, Text: q, Language: s.Language})
		s.FinalMessage = q
		return s, nil
	}
	if s.Intent == IntentFirstGreeting || s.Intent == IntentEndConversation {
		sc.send(nadine.Event{Kind: nadine.EventGesture, Gesture: nadine.Wave})
	}
	m := e.model(RoleResponse)
	req := nadine.ChatRequest{Role: RoleResponse, Messages: e.responseMessages(ctx, s)}
	var (
		split  nadine.SentenceSplitter
		spoken []string
	)
	say := func(sent string) {
		spoken = append(spoken, sent)
		sc.send(nadine.Event{Kind: nadine.EventSpeech, Text: sent, Language: s.Language})
	}
	resp, err := m.ChatStream(ctx, req, func(delta string) {
		for _, sent := range split.Write(delta) {
			say(sent)
		}
	})
	if rest := split.Flush(); rest != "" {
		say(rest)
	}
	text := strings.TrimSpace(resp.Content)
	if err != nil || text == "" {
		text = strings.Join(spoken, " ")
	}
	switch {
	case err != nil && len(spoken) == 0:
		return s, fmt.Errorf("agents: response: %w", err)
	case err != nil:
		nadine.TraceFrom(ctx).Fail("response_agent", err)
		nadine.TraceFrom(ctx).Notef("response_agent: the reply broke off after %d sentences", len(spoken))
	case text == "":
		return s, nadine.Errorf(nadine.EBADOUTPUT, "agents: response: empty reply")
	}
	s.FinalMessage = text
	s.ConversationMemory, s.EpisodeMemory = "", ""
	s.SearchResults, s.VisionResults, s.KnowledgeRetrieval = "", "", ""
	return s, nil
}

// responsePrompt fills the response's system prompt.
type responsePrompt struct {
	Language string
	Formal   bool
}

// packet fills the response's user message. Person, Episode,
// Conversation, Visual, Search, Vision and Knowledge are data sections
// (package fence): everything in them comes from outside the rules.
type packet struct {
	Date, Time, Affect                 string
	Greeting, Farewell, Named          bool
	Person, Episode, Conversation      string
	Visual, VisualDate                 string
	Search, Vision, Knowledge, Message string
}

// responseMessages builds the response request: persona and rules, the
// conversation window, and the packet (with the visual memory's picture).
func (e *Engine) responseMessages(ctx context.Context, s State) []nadine.ChatMessage {
	msgs := []nadine.ChatMessage{{Role: nadine.RoleSystem, Content: e.prompts.render("response_system",
		responsePrompt{Language: s.Language.Or(nadine.DefaultLanguage).Name(), Formal: s.Language == nadine.French})}}
	for _, m := range s.history() {
		if m.Role == nadine.RoleUser || m.Role == nadine.RoleAssistant {
			msgs = append(msgs, nadine.ChatMessage{Role: m.Role, Content: m.Content})
		}
	}
	pk, images := e.packet(ctx, s)
	return append(msgs, nadine.ChatMessage{Role: nadine.RoleUser, Content: e.prompts.render("response_packet", pk), Images: images})
}

func (e *Engine) packet(ctx context.Context, s State) (packet, []string) {
	now := e.opts.Now()
	pk := packet{
		Date:         now.Format("Monday, 2 January 2006"),
		Time:         now.Format("15:04"),
		Affect:       affect.Describe(s.Affect),
		Greeting:     s.Intent == IntentFirstGreeting,
		Farewell:     s.Intent == IntentEndConversation,
		Episode:      dataSection(fence.Episode, s.EpisodeMemory),
		Conversation: dataSection(fence.Conversation, s.ConversationMemory),
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
		if url, err := visual.DataURL(v.ImagePath); err == nil {
			images = append(images, url)
		} else {
			nadine.TraceFrom(ctx).Fail("visual_memory", err)
		}
	}
	return pk, images
}

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
