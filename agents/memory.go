package agents

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/graph"
	"github.com/nadine-robot/nadine/names"
)

// memoryUpdater holds the memory_update_agent and name_confirmation nodes:
// who the person is, their profile, and the episode of an ended conversation.
type memoryUpdater struct {
	on         bool // the memory agents run (Options.MemoryAgents with a store)
	store      nadine.Store
	embedder   nadine.Embedder
	model      nadine.ChatModel // role memory_update
	prompts    prompts
	nameHigh   float64 // Options.NameHigh
	nameLow    float64 // Options.NameLow
	makeUserID func(name string) string
	now        func() time.Time
	log        *slog.Logger
	// work runs the episodic save, started after the reply.
	work *work
}

// updateMemory schedules the episodic save on end_conversation (off the
// critical path); otherwise it extracts facts, settles identity and merges.
func (m *memoryUpdater) updateMemory(ctx context.Context, s State) (State, error) {
	tr := nadine.TraceFrom(ctx)
	s.IdentityChanged = false
	switch {
	case !m.on:
		tr.Notef("memory_update_agent: memory agents disabled")
		return s, nil
	case s.Intent == IntentEndConversation:
		m.scheduleEpisode(ctx, s)
		return s, nil
	case s.confirmationPending():
		tr.Notef("memory_update_agent: skipped, a name confirmation is pending")
		return s, nil
	}
	hist := s.history()
	if len(hist) > 4 {
		hist = hist[len(hist)-4:]
	}
	ex, err := extractUserInfo(ctx, m.model, m.prompts, hist, s.latest())
	if err != nil {
		tr.Fail("memory_update_agent", err)
		return s, nil
	}
	return m.applyExtraction(ctx, s, ex)
}

type extractionInput struct{ Recent, Message string }

// newExtractionInput is the recent conversation as a data section and the
// latest message.
func newExtractionInput(recent []nadine.Message, msg string) extractionInput {
	if len(recent) == 0 {
		return extractionInput{Message: msg}
	}
	return extractionInput{conversationData(recent), msg}
}

// extractUserInfo asks the memory_update model for the facts of msg.
func extractUserInfo(ctx context.Context, m nadine.ChatModel, p prompts, recent []nadine.Message, msg string) (Extraction, error) {
	content, err := ask(ctx, m, nadine.ChatRequest{Role: RoleMemoryUpdate, Format: extractionFormat, Messages: []nadine.ChatMessage{
		{Role: nadine.RoleSystem, Content: p.render("memory_update", nil)},
		{Role: nadine.RoleUser, Content: p.render("memory_update_input", newExtractionInput(recent, msg))},
	}})
	if err != nil {
		return Extraction{}, err
	}
	x, err := parseExtraction(content)
	if err != nil {
		return x, err
	}
	noteExtraction(ctx, content, x)
	x, dropped := grounded(x, personSaid(recent, msg))
	if len(dropped) > 0 {
		nadine.TraceFrom(ctx).Notef("memory_update_agent: %d extracted value(s) not in the person's words, not remembered", len(dropped))
	}
	return x, nil
}

// applyExtraction settles the identity and saves the facts.
func (m *memoryUpdater) applyExtraction(ctx context.Context, s State, ex Extraction) (State, error) {
	tr := nadine.TraceFrom(ctx)
	name := cleanName(ex.UserName)
	if s.NameSettled {
		// The message answered the name question, which settled the name.
		name = ""
	}
	ex.UserName = name
	cur := s.UserInfo
	if name == "" {
		if !cur.Known() || !ex.facts() {
			tr.Notef("memory_update_agent: no name and nothing to remember")
			return s, nil
		}
		return m.settle(ctx, s, cur.ID, cur.Name, ex, false)
	}
	if realID(cur.ID) && cur.Name != "" && names.Ratio(name, cur.Name) >= m.nameHigh {
		return m.settle(ctx, s, cur.ID, cur.Name, ex, false)
	}
	users, err := m.store.Users(ctx)
	if err != nil {
		tr.Fail("memory_update_agent", err)
		return s, nil
	}
	cands := names.Similar(name, users, m.nameLow)
	outcome := names.Classify(cands, m.nameHigh, m.nameLow)
	tr.Notef("memory_update_agent: name %q: %s", name, outcome)
	switch outcome {
	case names.StrongMatch:
		return m.settle(ctx, s, cands[0].UserID, cands[0].Name, ex, false)
	case names.Ambiguous:
		if len(cands) > 3 {
			cands = cands[:3]
		}
		c := NameConfirmation{GivenName: name, Extracted: &ex}
		for _, x := range cands {
			c.SimilarNames = append(c.SimilarNames, x.Name)
			c.SimilarIDs = append(c.SimilarIDs, x.UserID)
			c.SimilarityScores = append(c.SimilarityScores, x.Score)
		}
		s.NameConfirmation, s.NameChecked = c, false
		s.AssistantNote = fmt.Sprintf("The person said their name is %s, which sounds like %s.", name, cands[0].Name)
		return s, nil
	}
	return m.settle(ctx, s, m.newUserID(name, users), name, ex, true)
}

// newUserID makes an id that no known user has.
func (m *memoryUpdater) newUserID(name string, users []nadine.UserRef) string {
	taken := func(id string) bool {
		return !realID(id) || slices.ContainsFunc(users, func(u nadine.UserRef) bool { return u.ID == id })
	}
	id := m.makeUserID(name)
	for i := 2; taken(id); i++ {
		id = m.makeUserID(name) + "-" + strconv.Itoa(i)
	}
	return id
}

// settle makes id the person Nadine talks to, saves ex into their profile and
// tells face recognition; another user's profile is never touched.
func (m *memoryUpdater) settle(ctx context.Context, s State, id, name string, ex Extraction, isNew bool) (State, error) {
	tr := nadine.TraceFrom(ctx)
	p := nadine.Profile{UserID: id, UserName: name}
	if !isNew {
		switch got, err := m.store.Profile(ctx, id); {
		case err == nil:
			p = got
		case nadine.ErrorCode(err) != nadine.ENOTFOUND:
			tr.Fail("memory_update_agent", err)
			return s, nil
		}
	}
	if p.UserName == "" {
		p.UserName = name
	}
	p, changed := mergeProfile(p, ex, m.now())
	if isNew || len(changed) > 0 {
		// The reply needs the profile in the state, not in the store: it
		// is saved after the reply.
		saved, now := p, m.now()
		s.live.afterReply(ctx, func(ctx context.Context) {
			// Merged again into what is stored by then, in the store's
			// transaction: another robot may have updated this person.
			_, err := m.store.UpdateProfile(ctx, saved.UserID, func(cur nadine.Profile, found bool) (nadine.Profile, error) {
				if !found {
					return saved, nil
				}
				if cur.UserName == "" {
					cur.UserName = saved.UserName
				}
				merged, _ := mergeProfile(cur, ex, now)
				return merged, nil
			})
			if err != nil {
				tr.Fail("memory_update_agent", err)
				m.log.Error("agents: save profile", "user", nadine.PersonID(saved.UserID), "err", err)
			}
		})
	}
	old := s.UserInfo.ID
	s.UserInfo = UserInfo{ID: id, Name: p.UserName, Profile: &p}
	s.NameChecked, s.NameConfirmation = true, NameConfirmation{}
	s.IdentityChanged = old != id
	if s.FirstGreetingDone && s.GreetedUserID == "" {
		s.GreetedUserID = id
	}
	if n := len(s.Messages); n > 0 && s.Messages[n-1].Role == nadine.RoleUser {
		msgs := slices.Clone(s.Messages)
		msgs[n-1].Name = p.UserName
		s.Messages = msgs
	}
	switch {
	case isNew:
		s.AssistantNote = fmt.Sprintf("You just met %s for the first time.", p.UserName)
	case s.IdentityChanged:
		s.AssistantNote = fmt.Sprintf("You recognized %s, whom you met before.", p.UserName)
	}
	if len(changed) > 0 {
		s.AssistantNote = strings.TrimSpace(s.AssistantNote + " You will remember their " + strings.ReplaceAll(strings.Join(changed, ", "), "_", " ") + ".")
		tr.Notef("memory_update_agent: profile of %s updated: %s", id, strings.Join(changed, ", "))
	}
	if s.IdentityChanged || isNew {
		tr.Notef("memory_update_agent: talking with %s (%s)", p.UserName, id)
	}
	s.live.send(nadine.Event{Kind: nadine.EventUser, User: &nadine.UserRef{ID: id, Name: p.UserName}})
	return s, nil
}

// mergeProfile: stated fields replace stored ones, hobbies and interests are
// added without duplicates; it returns the profile and the changed fields.
func mergeProfile(p nadine.Profile, ex Extraction, now time.Time) (nadine.Profile, []string) {
	var changed []string
	set := func(field string, dst *string, v string) {
		if v = strings.TrimSpace(v); v != "" && v != *dst {
			*dst = v
			changed = append(changed, field)
		}
	}
	set("current_company", &p.CurrentCompany, ex.CurrentCompany)
	set("current_position", &p.CurrentPosition, ex.CurrentPosition)
	set("location", &p.Location, ex.Location)
	add := func(field string, dst *[]string, vs []string) {
		out := slices.Clone(*dst)
		for _, v := range nonEmpty(vs) {
			if !slices.ContainsFunc(out, func(x string) bool { return strings.EqualFold(x, v) }) {
				out = append(out, v)
			}
		}
		if len(out) != len(*dst) {
			*dst = out
			changed = append(changed, field)
		}
	}
	add("hobbies", &p.Hobbies, ex.Hobbies)
	add("interests", &p.Interests, ex.Interests)
	if len(changed) > 0 || p.LastUpdated.IsZero() {
		p.LastUpdated = now
	}
	return p, changed
}

// cleanName returns the name a model extracted, or "" when it is no real
// name ("unknown", "Nadine", "N/A", digits, ...).
func cleanName(s string) string {
	s = strings.Trim(strings.TrimSpace(s), " .,!?;:\"'`")
	switch strings.ToLower(s) {
	case "", "unknown", "none", "null", "nil", "n/a", "na", "user", "the user", "nadine", "anonymous",
		"not provided", "not stated", "not mentioned", "not given", "unspecified", "name":
		return ""
	}
	if len([]rune(s)) > 60 || strings.ContainsAny(s, "@/\\{}[]<>") || strings.IndexFunc(s, unicode.IsDigit) >= 0 {
		return ""
	}
	if s == strings.ToLower(s) {
		words := strings.Fields(s)
		for i, w := range words {
			words[i] = titleCase(w)
		}
		s = strings.Join(words, " ")
	}
	return s
}

// confirmName is the name_confirmation node: it interrupts the turn that
// asks, and resolves the answer when the next turn resumes it.
func (m *memoryUpdater) confirmName(ctx context.Context, s State) (State, error) {
	if !s.confirmationPending() {
		s.AwaitingAnswer = false
		return s, nil
	}
	if !s.AwaitingAnswer {
		s.AwaitingAnswer = true
		return s, graph.Interrupt("waiting for the answer to the name question")
	}
	s.AwaitingAnswer = false
	s, err := m.resolveName(ctx, s, s.latest())
	s.NameSettled = !s.confirmationPending()
	return s, err
}

// resolveName applies the answer to "Is your name <top>?": yes links the top
// candidate, another name its own profile, else the next candidate is asked.
func (m *memoryUpdater) resolveName(ctx context.Context, s State, answer string) (State, error) {
	tr := nadine.TraceFrom(ctx)
	c := s.NameConfirmation
	top, topID := c.SimilarNames[0], c.SimilarIDs[0]
	var ex Extraction
	if c.Extracted != nil {
		ex = *c.Extracted
	}
	stated := IntroducedName(answer)
	switch {
	case stated != "" && names.Ratio(stated, top) >= m.nameHigh, stated == "" && isAffirmative(answer):
		tr.Notef("name_confirmation: confirmed %s (%s)", top, topID)
		out, err := m.settle(ctx, s, topID, top, ex, false)
		out.AssistantNote = strings.TrimSpace(fmt.Sprintf("The person confirmed that they are %s, whom you met before. %s", top, out.AssistantNote))
		return out, err
	case stated != "":
		tr.Notef("name_confirmation: another name, %s", stated)
		users, err := m.store.Users(ctx)
		if err != nil {
			tr.Fail("name_confirmation", err)
			return s, nil
		}
		cands := names.Similar(stated, users, m.nameLow)
		if names.Classify(cands, m.nameHigh, m.nameLow) == names.StrongMatch {
			return m.settle(ctx, s, cands[0].UserID, cands[0].Name, ex, false)
		}
		return m.settle(ctx, s, m.newUserID(stated, users), stated, ex, true)
	case len(c.SimilarNames) == 1:
		tr.Notef("name_confirmation: not confirmed; %s is a new user", c.GivenName)
		users, err := m.store.Users(ctx)
		if err != nil {
			tr.Fail("name_confirmation", err)
			return s, nil
		}
		return m.settle(ctx, s, m.newUserID(c.GivenName, users), c.GivenName, ex, true)
	}
	tr.Notef("name_confirmation: not %s; asking about %s", top, c.SimilarNames[1])
	s.NameConfirmation = c.pop()
	return s, nil
}

// episode is the episodic memory of a conversation.
type episode struct {
	Observation string `json:"observation"`
	Thought     string `json:"thought"`
	Action      string `json:"action"`
	Result      string `json:"result"`
}

func (ep episode) text() string {
	return "Observation: " + ep.Observation + "\nThought: " + ep.Thought + "\nAction: " + ep.Action + "\nResult: " + ep.Result
}

// scheduleEpisode saves the ended conversation after the reply, as an episode
// and a conversation memory (tracked by Wait).
func (m *memoryUpdater) scheduleEpisode(ctx context.Context, s State) {
	tr := nadine.TraceFrom(ctx)
	switch {
	case !s.UserInfo.Known():
		tr.Notef("memory_update_agent: no episode for a person without a name")
		return
	case m.embedder == nil:
		tr.Notef("memory_update_agent: no embedder; the episode is not saved")
		return
	}
	msgs := slices.Clone(s.Messages)
	if s.FinalMessage != "" {
		msgs = append(msgs, nadine.Message{Role: nadine.RoleAssistant, Content: s.FinalMessage, Name: "Nadine", Time: m.now().Unix()})
	}
	user, conv, now := s.UserInfo, s.ConversationID, m.now()
	tr.Notef("memory_update_agent: the episode is saved in the background")
	s.live.afterReply(ctx, func(ctx context.Context) {
		if !m.work.save(2*time.Minute, func(ctx context.Context) { m.saveEpisode(ctx, user, conv, msgs, now) }) {
			m.log.Warn("agents: the engine closed before the episode was saved", "user", nadine.PersonID(user.ID))
		}
	})
}

// saveEpisode summarizes and stores a conversation.
func (m *memoryUpdater) saveEpisode(ctx context.Context, user UserInfo, conv string, msgs []nadine.Message, now time.Time) {
	text := transcript(msgs)
	if text == "" {
		return
	}
	emb := m.embedder
	store := func(typ nadine.MemoryType, text string, meta map[string]string) {
		v, err := nadine.EmbedOne(ctx, emb, text)
		if err == nil {
			_, err = m.store.AddMemory(ctx, nadine.Memory{UserID: user.ID, Type: typ, Text: text, ConversationID: conv,
				Time: now, Metadata: meta, Embedder: emb.Name(), Embedding: v})
		}
		if err != nil {
			m.log.Error("agents: save memory", "type", typ, "user", nadine.PersonID(user.ID), "err", err)
		}
	}
	ep, err := summarizeEpisode(ctx, m.model, m.prompts, conversationData(msgs))
	if err != nil {
		m.log.Warn("agents: episode summary failed; only the conversation is saved", "user", nadine.PersonID(user.ID), "err", err)
	} else {
		store(nadine.MemoryEpisode, ep.text(), map[string]string{"user_name": user.Name,
			"observation": ep.Observation, "thought": ep.Thought, "action": ep.Action, "result": ep.Result})
	}
	store(nadine.MemoryConversation, text, map[string]string{"user_name": user.Name, "source": "conversation_end"})
}

// summarizeEpisode asks the memory_update model for the episode of a
// transcript, read by parseEpisode.
func summarizeEpisode(ctx context.Context, m nadine.ChatModel, p prompts, transcript string) (episode, error) {
	content, err := ask(ctx, m, nadine.ChatRequest{Role: RoleMemoryUpdate, Format: episodeFormat, Messages: []nadine.ChatMessage{
		{Role: nadine.RoleSystem, Content: p.render("episode", nil)},
		{Role: nadine.RoleUser, Content: transcript},
	}})
	if err != nil {
		return episode{}, err
	}
	return parseEpisode(content)
}
