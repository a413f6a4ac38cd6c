package agents

import (
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
)

// Intent is the label the intention classifier gives the latest message.
type Intent string

// The five intents of the graph's intent agent, and forget_me.
const (
	IntentFirstGreeting   Intent = "first_greeting"
	IntentUpdateUserInfo  Intent = "update_user_info"
	IntentEndConversation Intent = "end_conversation"
	IntentLanguageChange  Intent = "language_change"
	IntentContinue        Intent = "continue_conversation"
	// IntentForgetMe ends the turn with nadine.EventForgetRequest; the dialogue
	// manager asks for confirmation and erases.
	IntentForgetMe Intent = "forget_me"
)

// Intents returns the intents, in the order the prompt lists them: seed
// 001's five and forget_me.
func Intents() []Intent {
	return []Intent{IntentFirstGreeting, IntentUpdateUserInfo, IntentEndConversation, IntentLanguageChange, IntentForgetMe, IntentContinue}
}

// Valid reports whether i is one of the intents.
func (i Intent) Valid() bool {
	for _, x := range Intents() {
		if i == x {
			return true
		}
	}
	return false
}

// fastPath: greetings and farewells go straight to the response with an empty
// plan, no model asked.
func (i Intent) fastPath() bool { return i == IntentFirstGreeting || i == IntentEndConversation }

// The graph's nodes, as they appear in the trace.
const (
	NodeUnderstand     = "understand" // the parallel group of the first four
	NodeIntent         = "intention_classifier"
	NodeMemoryRetrieve = "memory_retrieve_agent"
	NodeAppraisal      = "affective_appraisal"
	NodeOrchestrator   = "orchestrator"
	NodeMemoryUpdate   = "memory_update_agent"
	NodeSearch         = "search_agent"
	NodeVision         = "vision_agent"
	NodeKnowledge      = "knowledge_rag_agent"
	NodeResponse       = "response_agent"
	NodeAffectUpdate   = "affective_update"
	NodeNameConfirm    = "name_confirmation" // waits for the answer to "Is your name Alice?"
)

// The model roles: Options.Models is asked for one model per role.
const (
	RoleIntent         = "intent_classifier"
	RoleMemoryUpdate   = "memory_update" // profile extraction and episode summaries
	RoleAppraisal      = "appraisal"
	RoleContextSummary = "context_summary"
	RoleOrchestrator   = "orchestrator"
	RoleSearchRouter   = "search_router"
	RoleSearchAnswer   = "search_answer"
	RoleVision         = "vision"
	RoleResponse       = "response"
)

// Roles returns every model role of the graph engine.
func Roles() []string {
	return []string{RoleIntent, RoleMemoryUpdate, RoleAppraisal, RoleContextSummary, RoleOrchestrator,
		RoleSearchRouter, RoleSearchAnswer, RoleVision, RoleResponse}
}

// State is the graph's JSON state; its PersonStateKey part is erased with the person.
// Nodes return copies that replace, never change, slices, maps and pointers: parallel nodes share them.
type State struct {
	// Messages is the conversation window, oldest first; the last message
	// is the latest user input.
	Messages []nadine.Message `json:"messages"`
	Intent   Intent           `json:"intent"`
	Language nadine.Language  `json:"language"`
	UserInfo UserInfo         `json:"user_info"`
	// NameConfirmation is set while Nadine waits for the person to confirm
	// a similar known name; NameChecked says the identity is settled.
	NameConfirmation NameConfirmation `json:"name_confirmation"`
	NameChecked      bool             `json:"name_checked"`
	// Affect holds personality, emotion, mood and params.
	Affect affect.State `json:"affect"`
	// Retrieved memories of the current user (reset after each response).
	ConversationMemory string        `json:"conversation_memory"`
	EpisodeMemory      string        `json:"episode_memory"`
	VisualMemory       *VisualMemory `json:"visual_memory,omitempty"`
	// Results of the tool agents (reset after each response).
	SearchResults      string `json:"search_results"`
	VisionResults      string `json:"vision_results"`
	KnowledgeRetrieval string `json:"knowledge_retrieval"`
	// AssistantNote is the memory update's status text, shown to the
	// response agent ("Han is a new acquaintance").
	AssistantNote string `json:"assistant_note"`
	// PlanSteps is the orchestrator's plan; tool agents pop its first step.
	PlanSteps    []PlanStep `json:"plan_steps"`
	FinalMessage string     `json:"final_message"`
	// Greeting bookkeeping: a first greeting is accepted once per user.
	FirstGreetingDone bool   `json:"first_greeting_done"`
	GreetedUserID     string `json:"greeted_user_id"`

	// ConversationID is the conversation of the latest turn.
	ConversationID string `json:"conversation_id,omitempty"`
	// UserEmotion is the facial emotion perception saw with the latest turn.
	UserEmotion string `json:"user_emotion,omitempty"`
	// Time is when the person finished the latest message.
	Time time.Time `json:"time"`
	// Turn counts the turns of the current conversation.
	Turn int `json:"turn"`
	// live is what the nodes of the running turn share (see turn): set by
	// beginTurn, never serialized, nil outside a turn.
	live *turn
	// ContextSummary is the one-sentence summary of Messages before the
	// latest one; ContextKey identifies the history it summarizes.
	ContextSummary string `json:"context_summary,omitempty"`
	ContextKey     string `json:"context_key,omitempty"`
	// Planned says the orchestrator has planned this turn (possibly
	// speculatively, before the intent was known).
	Planned bool `json:"planned,omitempty"`
	// Dispatched lists the tool agents that ran this turn, in order.
	Dispatched []string `json:"dispatched,omitempty"`
	// IdentityChanged says the memory update switched to another user this
	// turn, so memories are retrieved again.
	IdentityChanged bool `json:"identity_changed,omitempty"`
	// AwaitingAnswer says the turn stopped after asking the name question.
	AwaitingAnswer bool `json:"awaiting_answer,omitempty"`
	// NameSettled says this turn's message answered the name question: the
	// name in it is not extracted again.
	NameSettled bool `json:"name_settled,omitempty"`
}

// UserInfo is who Nadine is talking to.
type UserInfo struct {
	ID      string          `json:"user_id"`
	Name    string          `json:"user_name"`
	Profile *nadine.Profile `json:"profile,omitempty"`
}

// Known reports whether the user has an id and a name (memories are only
// kept and retrieved for known users).
func (u UserInfo) Known() bool {
	return realID(u.ID) && strings.TrimSpace(u.Name) != "" && !strings.EqualFold(strings.TrimSpace(u.Name), "unknown")
}

// realID reports whether id names a user (not empty, not the unknown user).
func realID(id string) bool { return id != "" && id != nadine.UnknownUser }

// NameConfirmation is the payload of an ambiguous name match: the name the
// person gave and the similar known users, best first.
type NameConfirmation struct {
	GivenName        string    `json:"given_name,omitempty"`
	SimilarNames     []string  `json:"similar_names,omitempty"`
	SimilarIDs       []string  `json:"similar_ids,omitempty"`
	SimilarityScores []float64 `json:"similarity_scores,omitempty"`
	// Extracted holds the other facts of the message that gave the name,
	// saved into the profile once the identity is settled.
	Extracted *Extraction `json:"extracted,omitempty"`
}

// Pending reports whether a candidate is waiting for confirmation.
func (c NameConfirmation) Pending() bool { return len(c.SimilarNames) > 0 && len(c.SimilarIDs) > 0 }

// pop returns the confirmation without its first candidate.
func (c NameConfirmation) pop() NameConfirmation {
	out := c
	out.SimilarNames = append([]string(nil), c.SimilarNames[1:]...)
	out.SimilarIDs = append([]string(nil), c.SimilarIDs[1:]...)
	if len(c.SimilarityScores) > 0 {
		out.SimilarityScores = append([]float64(nil), c.SimilarityScores[1:]...)
	}
	return out
}

// PlanStep is one step of the orchestrator's plan.
type PlanStep struct {
	Agent   string `json:"agent"`
	Message string `json:"message"`
	// Tool is the search tool the orchestrator chose for a search_agent
	// step ("Google News"), which spares the search router's call; empty
	// (or unknown) lets the router choose.
	Tool string `json:"tool,omitempty"`
}

// VisualMemory is the memorable scene recalled for the current user.
type VisualMemory struct {
	SceneID     string    `json:"scene_id"`
	ImagePath   string    `json:"image_path"`
	Description string    `json:"description,omitempty"`
	Time        time.Time `json:"time"`
	Score       float64   `json:"score"`
}

// Extraction is what the memory update agent extracts from a message.
type Extraction struct {
	UserName        string   `json:"user_name"`
	CurrentCompany  string   `json:"current_company"`
	CurrentPosition string   `json:"current_position"`
	Location        string   `json:"location"`
	Hobbies         []string `json:"hobbies"`
	Interests       []string `json:"interests"`
}

// facts reports whether the extraction holds anything besides the name.
func (x Extraction) facts() bool {
	return strings.TrimSpace(x.CurrentCompany) != "" || strings.TrimSpace(x.CurrentPosition) != "" ||
		strings.TrimSpace(x.Location) != "" || len(nonEmpty(x.Hobbies)) > 0 || len(nonEmpty(x.Interests)) > 0
}

// latest returns the latest user message's text.
func (s State) latest() string {
	for i := len(s.Messages) - 1; i >= 0; i-- {
		if s.Messages[i].Role == nadine.RoleUser {
			return s.Messages[i].Content
		}
	}
	return ""
}

// history returns the messages before the latest one.
func (s State) history() []nadine.Message {
	if len(s.Messages) == 0 {
		return nil
	}
	return s.Messages[:len(s.Messages)-1]
}

// confirmationPending reports whether the name question is open.
func (s State) confirmationPending() bool { return s.NameConfirmation.Pending() && !s.NameChecked }

// resetTurn clears what one turn computes.
func (s State) resetTurn() State {
	s.Intent = ""
	s.PlanSteps = nil
	s.Planned = false
	s.Dispatched = nil
	s.SearchResults, s.VisionResults, s.KnowledgeRetrieval = "", "", ""
	s.ConversationMemory, s.EpisodeMemory, s.VisualMemory = "", "", nil
	s.FinalMessage, s.AssistantNote = "", ""
	s.IdentityChanged, s.NameSettled = false, false
	return s
}

// resetConversation clears what one conversation accumulates; the affect
// state and the language stay.
func (s State) resetConversation() State {
	s = s.resetTurn()
	s.Messages = nil
	s.FirstGreetingDone, s.GreetedUserID = false, ""
	s.NameConfirmation, s.NameChecked = NameConfirmation{}, false
	s.AwaitingAnswer = false
	s.ContextSummary, s.ContextKey = "", ""
	s.Turn = 0
	return s
}

func nonEmpty(xs []string) []string {
	var out []string
	for _, x := range xs {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
