package nadine

import (
	"encoding/json"
	"time"
)

// Session is what a robot knows about the interaction in front of it. Its
// dialogue manager owns it; engines change it only through events.
type Session struct {
	// User is the person in front of the robot; UnknownUser for a stranger.
	User UserRef `json:"user"`
	// UserEmotion is the facial emotion perception saw, lowercased
	// ("neutral" when none).
	UserEmotion string `json:"user_emotion"`
	// Language is the session language: what speech-to-text listens for
	// and Nadine answers in.
	Language Language `json:"language"`
	// ConversationID identifies this interaction's conversation window;
	// empty before the first turn.
	ConversationID string `json:"conversation_id,omitempty"`
	// Greeted is the id of the person Nadine greeted in this interaction
	// (UnknownUser for a stranger); empty until she greets.
	Greeted string `json:"greeted,omitempty"`
	// Affect is Nadine's own emotional state (the affect package's PAD
	// state, as JSON). It outlives interactions.
	Affect json.RawMessage `json:"affect,omitempty"`
	// Engine is JSON only the answering engine reads, cleared at the end of
	// every interaction.
	Engine json.RawMessage `json:"engine,omitempty"`
	// ConfirmForget says Nadine asked whether to forget the person, so their
	// next answer decides; only the dialogue manager sets and clears it.
	ConfirmForget bool `json:"confirm_forget,omitempty"`
	// Turns counts the turns of this interaction.
	Turns int `json:"turns"`
	// Started is when this interaction's first turn or person arrived;
	// Active is when the last transcript or sighting of the person came.
	Started time.Time `json:"started,omitzero"`
	Active  time.Time `json:"active,omitzero"`
}

// InInteraction reports whether someone is known to be in front of the
// robot or has spoken since the last end of interaction.
func (s Session) InInteraction() bool {
	return (s.User.ID != "" && s.User.ID != UnknownUser) || s.Turns > 0 || s.ConversationID != ""
}

// SessionUpdate is an engine's change to the session's opaque parts,
// carried by an EventSession. A nil field leaves that part unchanged.
type SessionUpdate struct {
	// Affect is Nadine's new emotional state (the affect package's JSON).
	Affect json.RawMessage `json:"affect,omitempty"`
	// Engine is the engine's new state for this interaction; the JSON
	// value null clears it.
	Engine json.RawMessage `json:"engine,omitempty"`
	// Greeted, when not empty, records that Nadine greeted this person.
	Greeted string `json:"greeted,omitempty"`
}
