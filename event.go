package nadine

// EventKind says what an Event carries.
type EventKind string

// The kinds of events a turn emits, in the order they happen.
const (
	EventSpeech   EventKind = "speech"   // one complete sentence to speak now
	EventGesture  EventKind = "gesture"  // an animation to play now
	EventAffect   EventKind = "affect"   // Nadine's emotion changed
	EventLanguage EventKind = "language" // the session language changed
	EventUser     EventKind = "user"     // the person's identity was settled (tell face recognition)
	EventSong     EventKind = "song"     // a song to play
	EventSession  EventKind = "session"  // the engine changed its state or Nadine's mood (SessionUpdate)
	EventDone     EventKind = "done"     // the turn ended; Reply holds the collected reply
	// EventReplyFields carries, in Reply, fields of the reply known only
	// after it was published: ReAct's category and causing person, which
	// the model writes after the reply text. The dialogue manager adds
	// them to the reply it returns; nothing is published.
	EventReplyFields EventKind = "reply_fields"
	// EventForgetRequest says the person asked to be forgotten ("forget
	// me", "delete what you know about me"). The dialogue manager owns
	// what follows: it asks them to confirm, in their language, and erases
	// them on a clear yes (docs/privacy-forget.md). An engine that
	// understands the request emits it before any speech of the turn and
	// need say nothing: its reply may be empty, and what it says after the
	// event is not spoken. Nothing is published.
	EventForgetRequest EventKind = "forget_request"
	// EventRecital says a tool gave the reply a text to recite whole (a
	// song's lyrics): the turn's speech budget does not cut it. Nothing
	// is published.
	EventRecital EventKind = "recital"
)

// Event is one piece of a turn's output. Engines emit events as soon as they
// exist, so that the robot can start speaking before the whole reply is
// generated; Reply is the collection of a turn's events.
type Event struct {
	Kind     EventKind    `json:"kind"`
	Text     string       `json:"text,omitempty"`     // EventSpeech: one sentence
	Language Language     `json:"language,omitempty"` // EventSpeech, EventLanguage
	Gesture  Gesture      `json:"gesture,omitempty"`  // EventGesture
	Affect   *AffectState `json:"affect,omitempty"`   // EventAffect
	User     *UserRef     `json:"user,omitempty"`     // EventUser
	Song     *Song        `json:"song,omitempty"`     // EventSong
	Reply    *Reply       `json:"reply,omitempty"`    // EventDone, EventReplyFields
	// Session carries an EventSession's change to the session; it is
	// applied by the dialogue manager, never published.
	Session *SessionUpdate `json:"session,omitempty"`
	// Filler marks an EventSpeech that is not part of the reply: a short
	// line ("Let me check…") said while the turn waits on something slow,
	// so the robot is not silent. It is published but not collected. Only
	// the turn's output says one (engines and tools ask for it:
	// Request.AskFiller).
	Filler bool `json:"filler,omitempty"`
	// Seq numbers the spoken lines of a turn as they go out (EventSpeech,
	// fillers included), and is the number of lines for EventDone (the
	// final marker's seq). The turn's output sets it.
	Seq int `json:"seq,omitempty"`
}

// EmitFunc receives a turn's events. Implementations must be safe for
// concurrent use: parallel graph branches emit from several goroutines.
type EmitFunc func(Event)

// AffectState is Nadine's emotional state as published on the bus
// (nadine/affect/state carries label, arousal and intensity) and shown in the
// monitor (the PAD mood).
type AffectState struct {
	Label     Emotion `json:"label"`
	Intensity float64 `json:"intensity"` // 0 to 1
	Arousal   float64 `json:"arousal"`   // -1 to 1, the emotion's arousal
	// Mood is the longer-lived PAD mood, each axis in -1..1.
	Pleasure    float64 `json:"pleasure"`
	Dominance   float64 `json:"dominance"`
	MoodArousal float64 `json:"mood_arousal"`
	MoodLabel   string  `json:"mood_label,omitempty"` // e.g. "slightly exuberant"
}

// Song is a song Nadine sings: a file from the song library.
type Song struct {
	Title    string   `json:"title"`
	Language Language `json:"language"`
	Path     string   `json:"path"` // audio file the control layer plays
}
