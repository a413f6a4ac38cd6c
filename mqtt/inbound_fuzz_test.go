package mqtt

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
)

// FuzzParseInbound decodes every inbound topic's payloads as perception,
// speech-to-text and control processes send them (and as they get them
// wrong): nothing panics, and what is delivered is what the contract says.
func FuzzParseInbound(f *testing.F) {
	kinds := []nadine.InboundKind{nadine.InboundTranscript, nadine.InboundUserName, nadine.InboundUserEmotion, nadine.InboundUserDetected, nadine.InboundFaceStored,
		nadine.InboundUserLeft, nadine.InboundStartSpeak, nadine.InboundEndSpeak, nadine.InboundLanguage}
	for _, s := range []struct {
		kind    uint8
		payload string
	}{
		{0, `{"text": "Hello Nadine", "language": "en", "final": true, "id": "t-1"}`},
		{0, `{"text": "Bonjour", "language": "fr-FR", "final": false, "id": 42}`},
		{0, `{"text": "Bonjour Nadine", "final": false, "stable": true}`},
		{0, `{"text": "", "final": false, "stable": "yes"}`},
		{0, `{"text": "Hallo", "language": "klingon"}`},
		{0, `What is the weather?`},
		{0, `"quoted plain text"`},
		{0, `{"text": 5}`},
		{1, `Alex`},
		{1, `{"user_name": "Alex Smith", "user_id": "alex-1"}`},
		{2, `Happy`},
		{2, `{"emotion": "SURPRISE"}`},
		{3, `{"user_name": "Alex", "user_id": "alex-1", "confidence": 0.93}`},
		{3, `{"user_id": "alex-1", "confidence": 1.5}`},
		{4, `{"user_name": "Alex", "user_id": "alex-1", "status": "stored"}`},
		{5, ``},
		{5, `{"user_id": "alex-1"}`},
		{6, `anything`},
		{8, `{"language": "de"}`},
		{8, `French`},
	} {
		f.Add(s.kind, []byte(s.payload))
	}
	f.Fuzz(func(t *testing.T, k uint8, payload []byte) {
		if !utf8.Valid(payload) || len(payload) > DefaultMaxPayload {
			return // the bus drops these before decoding
		}
		kind := kinds[int(k)%len(kinds)]
		in, err := parseInbound(kind, payload)
		var lang *unsupportedLanguageError
		if err != nil && !errors.As(err, &lang) {
			return
		}
		switch kind {
		case nadine.InboundTranscript:
			if strings.TrimSpace(in.Transcript.Text) == "" || (in.Transcript.Stable && in.Transcript.Final) {
				t.Fatalf("delivered %+v from %q", in.Transcript, payload)
			}
			if l := in.Transcript.Language; l != "" && !l.Valid() {
				t.Fatalf("language %q from %q", l, payload)
			}
		case nadine.InboundUserName, nadine.InboundUserDetected, nadine.InboundFaceStored:
			if in.User.ID == "" {
				t.Fatalf("no user id from %q", payload)
			}
			if in.Confidence < 0 || in.Confidence > 1 {
				t.Fatalf("confidence %v from %q", in.Confidence, payload)
			}
		case nadine.InboundUserEmotion:
			if in.Emotion == "" || len(in.Emotion) > maxEmotionLen || in.Emotion != strings.ToLower(in.Emotion) {
				t.Fatalf("emotion %q from %q", in.Emotion, payload)
			}
		case nadine.InboundLanguage:
			if !in.Language.Valid() {
				t.Fatalf("language %q from %q", in.Language, payload)
			}
		}
	})
}
