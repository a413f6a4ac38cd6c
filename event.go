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
	// EventSpeechEnd says the reply's text is complete: the turn says nothing
	// more (the final speak marker goes out with it) while its bookkeeping
	// goes on until EventDone. An engine emits it once its last sentence is
	// known to be last; the output passes it on after that sentence.
	EventSpeechEnd EventKind = "speech_end"
	// EventReplyFields carries, in Reply, fields the model writes after the
	// reply text (ReAct's category, causing person); never published.
	EventReplyFields EventKind = "reply_fields"
	// EventForgetRequest hands "forget me" to the dialogue manager, which asks to
	// confirm; emit it before any speech, since nothing said after it is spoken.
	EventForgetRequest EventKind = "forget_request"
	// EventRecital marks a text to recite whole (a song's lyrics), which the
	// speech budget does not cut; never published.
	EventRecital EventKind = "recital"
)

// Event is one piece of a turn's output, emitted as soon as it exists so the
// robot speaks before the whole reply is generated.
type Event struct {
	Kind     EventKind    `json:"kind"`
	Text     string       `json:"text,omitempty"`     // EventSpeech: one sentence
	Language Language     `json:"language,omitempty"` // EventSpeech, EventLanguage
	Gesture  Gesture      `json:"gesture,omitempty"`  // EventGesture
	Affect   *AffectState `json:"affect,omitempty"`   // EventAffect
	User     *UserRef     `json:"user,omitempty"`     // EventUser
	Song     *Song        `json:"song,omitempty"`     // EventSong
	Reply    *Reply       `json:"reply,omitempty"`    // EventDone, EventReplyFields
	// Session is applied by the dialogue manager, never published.
	Session *SessionUpdate `json:"session,omitempty"`
	// Filler marks a line said so the robot is not silent while the turn waits:
	// published, not collected; only the output says one (Request.AskFiller).
	Filler bool `json:"filler,omitempty"`
	// Seq, set by the output, numbers spoken lines (fillers included); on
	// EventSpeechEnd and EventDone it is the number of lines.
	Seq int `json:"seq,omitempty"`
}

// EmitFunc receives a turn's events. Implementations must be safe for
// concurrent use: parallel graph branches emit from several goroutines.
type EmitFunc func(Event)

// AffectState is Nadine's emotion as published on nadine/affect/state (label,
// arousal, intensity) and her PAD mood as the monitor shows it.
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
