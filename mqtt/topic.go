package mqtt

import (
	"strings"

	"github.com/nadine-robot/nadine"
)

// Topics are relative to the bus prefix ("nadine/stt/transcript"); a test checks
// each appears in docs/asyncapi.yaml.
const (
	// Inbound: what perception, speech-to-text and control tell Nadine.

	// TopicTranscript carries speech-to-text results: JSON
	// {"text","language","final","id"} or a plain-text final transcript.
	TopicTranscript = "stt/transcript"
	// TopicUserName names the person in front of the robot: plain
	// text or JSON {"user_name","user_id"}.
	TopicUserName = "user/name"
	// TopicUserEmotion carries the person's facial emotion: plain
	// text or JSON {"emotion"}.
	TopicUserEmotion = "user/emotion"
	// TopicUserDetected says face recognition recognized someone:
	// JSON {"user_name","user_id","confidence"}.
	TopicUserDetected = "graph/user_detected"
	// TopicFaceStored says perception stored a face under an id:
	// JSON {"user_name","user_id","status"}.
	TopicFaceStored = "graph/face_stored"
	// TopicUserLeft ends the interaction: JSON {"user_id"}, a plain-text id
	// or an empty payload.
	TopicUserLeft = "user/left"
	// TopicStartSpeak says text-to-speech started speaking (any payload).
	TopicStartSpeak = "agent/feedback/start_speak"
	// TopicEndSpeak says text-to-speech finished speaking (any payload).
	TopicEndSpeak = "agent/feedback/end_speak"
	// TopicSpoken is TTS's report of each sentence said; "cut" and "words"
	// say where it stopped inside one.
	TopicSpoken = "agent/feedback/spoken"
	// TopicSpeechStarted is speech-to-text's voice activity start: any
	// payload, or JSON {"time"}.
	TopicSpeechStarted = "stt/speech_started"
	// TopicLanguage sets the session language from outside (optional):
	// JSON {"language"} or plain text ("fr", "French").
	TopicLanguage = "agent/control/language"

	// Outbound: what Nadine tells control, perception and speech-to-text.

	// TopicSpeak carries one sentence to speak, as JSON
	// {"text","language","locale","seq","final","turn_id"}.
	TopicSpeak = "agent/control/speak"
	// TopicSpeakText mirrors TopicSpeak as the bare sentence, with the locale
	// in a user property, for plain-text TTS consumers.
	TopicSpeakText = "agent/control/speak/text"
	// TopicAnimation carries the name of an animation to play, as plain text.
	TopicAnimation = "agent/control/animation"
	// TopicSong asks control to play a song: JSON {"title","language","path"}.
	TopicSong = "agent/control/song"
	// TopicAffect carries Nadine's emotional state: JSON {"label","arousal",
	// "intensity"} plus the PAD mood.
	TopicAffect = "affect/state"
	// TopicUserInfo tells face recognition who the person is, or with
	// "forget": true that their face is to be deleted.
	TopicUserInfo = "face_recognition/user_info"
	// TopicCapture asks perception to write the current view to a path
	// (plain-text payload: the path).
	TopicCapture = "perception/capture_current_view"
	// TopicStop tells text-to-speech to stop speaking now and drop the
	// sentences it queued: JSON {"turn_id","reason"}.
	TopicStop = "agent/control/stop"
	// TopicSTTLanguage tells speech-to-text which language to listen for:
	// JSON {"language","locale"}, retained so a restarted STT picks it up.
	TopicSTTLanguage = "stt/language"
)

// InboundTopics are relative to the prefix.
func InboundTopics() []string {
	return []string{
		TopicTranscript, TopicUserName, TopicUserEmotion, TopicUserDetected,
		TopicFaceStored, TopicUserLeft, TopicStartSpeak, TopicEndSpeak, TopicLanguage,
		TopicSpoken, TopicSpeechStarted,
	}
}

// OutboundTopics are relative to the prefix.
func OutboundTopics() []string {
	return []string{
		TopicSpeak, TopicSpeakText, TopicAnimation, TopicSong, TopicAffect,
		TopicUserInfo, TopicCapture, TopicSTTLanguage, TopicStop,
	}
}

// inboundKind takes a topic relative to the prefix.
func inboundKind(topic string) (nadine.InboundKind, bool) {
	switch topic {
	case TopicTranscript:
		return nadine.InboundTranscript, true
	case TopicUserName:
		return nadine.InboundUserName, true
	case TopicUserEmotion:
		return nadine.InboundUserEmotion, true
	case TopicUserDetected:
		return nadine.InboundUserDetected, true
	case TopicFaceStored:
		return nadine.InboundFaceStored, true
	case TopicUserLeft:
		return nadine.InboundUserLeft, true
	case TopicStartSpeak:
		return nadine.InboundStartSpeak, true
	case TopicEndSpeak:
		return nadine.InboundEndSpeak, true
	case TopicLanguage:
		return nadine.InboundLanguage, true
	case TopicSpoken:
		return nadine.InboundSpoken, true
	case TopicSpeechStarted:
		return nadine.InboundSpeechStarted, true
	}
	return "", false
}

// validPrefix reports why p cannot be a topic prefix, or "" when it can.
func validPrefix(p string) string {
	switch {
	case p == "":
		return "empty"
	case strings.ContainsAny(p, "+#\x00"):
		return "contains a wildcard or NUL"
	case strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || strings.Contains(p, "//"):
		return "has an empty topic level"
	case strings.HasPrefix(p, "$"):
		return "starts with $ (reserved for the broker)"
	}
	return ""
}

// validRelativeTopic returns "" when t can be a topic under the prefix.
func validRelativeTopic(t string) string {
	switch {
	case t == "":
		return "empty topic"
	case strings.ContainsAny(t, "+#\x00"):
		return "topic contains a wildcard or NUL"
	case strings.HasPrefix(t, "/") || strings.HasSuffix(t, "/") || strings.Contains(t, "//"):
		return "topic has an empty level"
	}
	return ""
}
