package nadine

import "time"

// InboundKind says what an Inbound message is.
type InboundKind string

// The kinds of inbound messages, one per inbound topic of the robot bus.
const (
	InboundTranscript   InboundKind = "transcript"    // Transcript
	InboundUserName     InboundKind = "user_name"     // User
	InboundUserEmotion  InboundKind = "user_emotion"  // Emotion
	InboundUserDetected InboundKind = "user_detected" // User, Confidence
	InboundFaceStored   InboundKind = "face_stored"   // User, Status
	InboundUserLeft     InboundKind = "user_left"     // User.ID (may be empty)
	InboundStartSpeak   InboundKind = "start_speak"   // nothing else
	InboundEndSpeak     InboundKind = "end_speak"     // nothing else
	InboundLanguage     InboundKind = "language"      // Language
	// InboundSpoken: text-to-speech said one sentence (Spoken), or was cut
	// in it.
	InboundSpoken InboundKind = "spoken"
	// InboundSpeechStarted: speech-to-text's voice activity started
	// (SpeechAt, the time it carried, else the arrival).
	InboundSpeechStarted InboundKind = "speech_started"
)

// Inbound is one validated message from the robot bus (perception,
// speech-to-text, control); Kind says which fields are set.
type Inbound struct {
	Kind       InboundKind
	Transcript Transcript   // InboundTranscript
	User       UserRef      // InboundUserName, InboundUserDetected, InboundFaceStored, InboundUserLeft
	Confidence float64      // InboundUserDetected, 0 to 1
	Status     string       // InboundFaceStored, as perception wrote it
	Emotion    string       // InboundUserEmotion, lowercased ("happy", "neutral")
	Language   Language     // InboundLanguage
	Spoken     SpokenReport // InboundSpoken
	SpeechAt   time.Time    // InboundSpeechStarted: when the voice started; zero when not given
	Received   time.Time    // when the bus received the message
}

// SpokenReport is text-to-speech's report of one sentence said: the whole
// sentence, or, when it was cut, how many of its words were said.
type SpokenReport struct {
	TurnID string
	Seq    int
	// Words, when Cut, is how many words of the sentence were said before
	// the cut; -1 when the speaker cannot tell.
	Words int
	Cut   bool
}

// Transcript is one speech-to-text result: final (a turn), or interim
// (the person still speaks), which may start an early turn.
type Transcript struct {
	ID       string   // the peer's id, for deduplication; may be empty
	Text     string   // trimmed, never empty
	Language Language // empty: the session language
	Final    bool     // false for an interim result, never kept in an inbox
	// Stable marks an interim result that speech-to-text does not expect
	// to change any more (an early turn may start on it at once).
	Stable bool
	// Spoken is when the person spoke, as speech-to-text stamped it; zero
	// when the transcript carried no time.
	Spoken time.Time
	// Received is when the bus received it (the arrival time).
	Received time.Time
	// Seq is the transcript's position in the robot's inbox (arrival
	// order), 0 when it is not kept in one.
	Seq int64
}

// Speech is one sentence for text-to-speech, published as soon as the
// engine has it.
type Speech struct {
	Text     string   // one sentence; may be empty only when Final
	Language Language // the language to speak it in; empty means English
	Seq      int      // position of the sentence in the turn, from 0
	Final    bool     // the turn's last sentence
	TurnID   string   // the turn the sentence belongs to
	// Filler marks a line said while the turn waits on a slow tool: spoken
	// with its own Seq, but not part of the reply, and never Final.
	Filler bool
}
