package nadine

import "time"

// UnknownUser is the user id of a person nobody has recognized or named.
// Nothing is stored or retrieved for this user.
const UnknownUser = "unknown"

// Turn is one final speech transcript and what is known about who said it.
type Turn struct {
	ID          string    `json:"id,omitempty"` // identifies the turn in traces and on the bus; set when empty
	Text        string    `json:"text"`
	Language    Language  `json:"language,omitempty"`     // the session language when empty
	UserID      string    `json:"user_id,omitempty"`      // UnknownUser when empty
	UserName    string    `json:"user_name,omitempty"`    // the display name, when known
	UserEmotion string    `json:"user_emotion,omitempty"` // facial emotion from perception, "neutral" when empty
	Time        time.Time `json:"time"`                   // when the user finished speaking
}

// Emotion is one of the six basic emotions Nadine can feel, or Neutral.
type Emotion string

// The emotions of the ReAct final answer, plus Neutral for "no emotion".
const (
	Joy      Emotion = "joy"
	Sadness  Emotion = "sadness"
	Fear     Emotion = "fear"
	Disgust  Emotion = "disgust"
	Anger    Emotion = "anger"
	Surprise Emotion = "surprise"
	Neutral  Emotion = "neutral"
)

// Emotions returns the six emotions a final answer may carry.
func Emotions() []Emotion { return []Emotion{Joy, Sadness, Fear, Disgust, Anger, Surprise} }

// Valid reports whether e is one of the six emotions or Neutral.
func (e Emotion) Valid() bool {
	if e == Neutral {
		return true
	}
	for _, x := range Emotions() {
		if e == x {
			return true
		}
	}
	return false
}

// Category classifies the user's statement (the ReAct final answer).
type Category string

// The categories of the ReAct final answer.
const (
	CategoryGreeting    Category = "greeting"
	CategoryFarewell    Category = "farewell"
	CategoryInsult      Category = "insult"
	CategoryComplement  Category = "complement"
	CategoryInformation Category = "information request"
	CategoryOther       Category = "other"
)

// Categories returns every category.
func Categories() []Category {
	return []Category{CategoryGreeting, CategoryFarewell, CategoryInsult, CategoryComplement, CategoryInformation, CategoryOther}
}

// Valid reports whether c is a known category.
func (c Category) Valid() bool {
	for _, x := range Categories() {
		if c == x {
			return true
		}
	}
	return false
}

// Gesture is the name of an animation the control layer plays.
type Gesture string

// The animations of the behaviour tool and of StatementCategories.
const (
	Smile     Gesture = "smile"
	Wave      Gesture = "wave"
	AngerFace Gesture = "anger"
)

// CategoryGesture returns the gesture of a statement category (a greeting
// waves, a compliment smiles, an insult angers), "" for the others.
func CategoryGesture(c Category) Gesture {
	switch c {
	case CategoryGreeting, CategoryFarewell:
		return Wave
	case CategoryComplement:
		return Smile
	case CategoryInsult:
		return AngerFace
	}
	return ""
}

// Causing persons besides the user's name (the ReAct final answer).
const (
	CausedBySelf        = "SELF"
	CausedByHuman       = "human"
	CausedBySomeoneElse = "SOMEONE ELSE"
)

// Reply is what Nadine says and does in answer to one turn.
type Reply struct {
	Text             string    `json:"text"`
	Language         Language  `json:"language"`
	Emotion          Emotion   `json:"emotion"`
	EmotionIntensity int       `json:"emotion_intensity"` // 0 to 10
	Category         Category  `json:"category,omitempty"`
	CausingPerson    string    `json:"causing_person,omitempty"`
	Gestures         []Gesture `json:"gestures,omitempty"`
	UserID           string    `json:"user_id,omitempty"`   // who Nadine answered (may change during the turn)
	UserName         string    `json:"user_name,omitempty"` // that user's name, when known
	Fallback         bool      `json:"fallback,omitempty"`  // true when a fallback engine or line answered
	Trace            *Trace    `json:"trace,omitempty"`
}

// Role says who wrote a message.
type Role string

// Message roles, as in the OpenAI chat format.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one line of a conversation, stamped with a Unix timestamp
// (every message carries its timestamp in its metadata).
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content"`
	Name    string `json:"name,omitempty"` // speaker name, when known
	Time    int64  `json:"time"`           // Unix seconds
}

// UserRef names a known user.
type UserRef struct {
	ID   string `json:"user_id"`
	Name string `json:"user_name"`
}
