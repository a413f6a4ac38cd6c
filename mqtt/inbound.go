package mqtt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
)

// The inbound types (nadine.Inbound, nadine.Transcript and the
// nadine.InboundKind constants) are the root package's, so that the robot
// runtime depends on no adapter.

// errIgnored marks a well-formed message that is deliberately not delivered
// (a partial transcript); it is logged at debug, not warn.
var errIgnored = errors.New("ignored")

// maxEmotionLen bounds a facial emotion label.
const maxEmotionLen = 64

// parseInbound returns errIgnored (wrapped) for messages to skip silently;
// another error's text is the reason a message is malformed.
func parseInbound(kind nadine.InboundKind, payload []byte) (nadine.Inbound, error) {
	in := nadine.Inbound{Kind: kind}
	var err error
	switch kind {
	case nadine.InboundTranscript:
		in.Transcript, err = parseTranscript(payload)
	case nadine.InboundUserName:
		in.User, err = parseUserName(payload)
	case nadine.InboundUserEmotion:
		in.Emotion, err = parseEmotion(payload)
	case nadine.InboundUserDetected:
		in.User, in.Confidence, err = parseUserDetected(payload)
	case nadine.InboundFaceStored:
		in.User, in.Status, err = parseFaceStored(payload)
	case nadine.InboundUserLeft:
		in.User, err = parseUserLeft(payload)
	case nadine.InboundStartSpeak, nadine.InboundEndSpeak:
		// Any payload: the message itself is the signal.
	case nadine.InboundLanguage:
		in.Language, err = parseLanguage(payload)
	case nadine.InboundSpoken:
		in.Spoken, err = parseSpoken(payload)
	case nadine.InboundSpeechStarted:
		in.SpeechAt = parseSpeechStarted(payload)
	default:
		err = fmt.Errorf("unknown kind %q", kind)
	}
	return in, err
}

// isJSONObject payloads must be valid JSON; anything else on a plain-text topic
// is plain text.
func isJSONObject(payload []byte) bool {
	t := bytes.TrimSpace(payload)
	return len(t) > 0 && t[0] == '{'
}

// plainText returns the trimmed text of a plain-text payload; a payload that
// is a JSON string literal ("\"hello\"") is unquoted.
func plainText(payload []byte) string {
	t := bytes.TrimSpace(payload)
	if len(t) >= 2 && t[0] == '"' && t[len(t)-1] == '"' {
		var s string
		if json.Unmarshal(t, &s) == nil {
			return strings.TrimSpace(s)
		}
	}
	return string(t)
}

// decodeObject decodes a JSON object into dst, translating decoder errors
// into short reasons ("field text: want string, got number").
func decodeObject(payload []byte, dst any) error {
	if err := json.Unmarshal(payload, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("field %s: want %s, got %s", te.Field, te.Type, te.Value)
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("bad JSON at byte %d", se.Offset)
		}
		return errors.New("bad JSON")
	}
	return nil
}

// optString is a JSON field that may be a string or null.
type optString = *string

func str(s optString) string {
	if s == nil {
		return ""
	}
	return strings.TrimSpace(*s)
}

func parseTranscript(payload []byte) (nadine.Transcript, error) {
	if !isJSONObject(payload) {
		text := plainText(payload)
		if text == "" {
			return nadine.Transcript{}, errors.New("empty text")
		}
		// A plain-text transcript is final and in the session language.
		return nadine.Transcript{Text: text, Final: true}, nil
	}
	var m struct {
		Text     optString       `json:"text"`
		Language optString       `json:"language"`
		Final    *bool           `json:"final"`
		Stable   json.RawMessage `json:"stable"`
		ID       json.RawMessage `json:"id"`
		Time     json.RawMessage `json:"time"`
		Stamp    json.RawMessage `json:"timestamp"`
	}
	if err := decodeObject(payload, &m); err != nil {
		return nadine.Transcript{}, err
	}
	t := nadine.Transcript{Text: str(m.Text), Final: m.Final == nil || *m.Final, Spoken: parseTime(m.Time)}
	// A stable flag of another type is no reason to lose the transcript:
	// only true counts.
	t.Stable = !t.Final && string(bytes.TrimSpace(m.Stable)) == "true"
	if t.Spoken.IsZero() {
		t.Spoken = parseTime(m.Stamp)
	}
	id, err := parseID(m.ID)
	if err != nil {
		return nadine.Transcript{}, err
	}
	t.ID = id
	if t.Text == "" {
		if !t.Final {
			// Speech-to-text heard a sound, no words yet.
			return t, fmt.Errorf("empty interim transcript: %w", errIgnored)
		}
		return nadine.Transcript{}, errors.New("empty text")
	}
	if l := str(m.Language); l != "" {
		lang, err := nadine.ParseLanguage(l)
		if err != nil {
			// Be generous: answer in the session language rather than
			// ignore the person. The caller logs the unsupported code.
			return t, &unsupportedLanguageError{lang: l}
		}
		t.Language = lang
	}
	return t, nil
}

// parseTime accepts RFC 3339 or Unix seconds (milliseconds when that large);
// anything else is no time, and the turn is aged from its arrival.
func parseTime(raw json.RawMessage) time.Time {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return time.Time{}
	}
	var at time.Time
	var s string
	var n float64
	switch {
	case json.Unmarshal(raw, &s) == nil:
		t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
		if err != nil {
			return time.Time{}
		}
		at = t
	case json.Unmarshal(raw, &n) == nil && !math.IsNaN(n) && !math.IsInf(n, 0):
		if n > 1e11 { // milliseconds
			n /= 1000
		}
		if n > 1e10 {
			return time.Time{}
		}
		at = time.Unix(0, int64(n*1e9))
	default:
		return time.Time{}
	}
	if at.Year() < 2000 {
		return time.Time{}
	}
	return at
}

// unsupportedLanguageError: the transcript is still delivered, in the session language.
type unsupportedLanguageError struct{ lang string }

func (e *unsupportedLanguageError) Error() string {
	return fmt.Sprintf("unsupported language %q, using the session language", nadine.Shorten(e.lang, 16))
}

// parseID accepts a string or an integer id; absent and null mean no id.
func parseID(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s), nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		if i, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
			return strconv.FormatInt(i, 10), nil
		}
	}
	return "", errors.New("field id: want string or integer")
}

// parseUserName: plain text (the name) or {"user_name","user_id"}; a plain name is
// also the user id unless an id is given.
func parseUserName(payload []byte) (nadine.UserRef, error) {
	var u nadine.UserRef
	if isJSONObject(payload) {
		var m struct {
			Name optString `json:"user_name"`
			ID   optString `json:"user_id"`
		}
		if err := decodeObject(payload, &m); err != nil {
			return u, err
		}
		u = nadine.UserRef{ID: str(m.ID), Name: str(m.Name)}
	} else {
		u.Name = plainText(payload)
	}
	if u.Name == "" {
		return nadine.UserRef{}, errors.New("empty user_name")
	}
	if u.ID == "" {
		u.ID = u.Name
	}
	return u, nil
}

// parseEmotion: plain text or {"emotion"}, lowercased.
func parseEmotion(payload []byte) (string, error) {
	var e string
	if isJSONObject(payload) {
		var m struct {
			Emotion optString `json:"emotion"`
		}
		if err := decodeObject(payload, &m); err != nil {
			return "", err
		}
		e = str(m.Emotion)
	} else {
		e = plainText(payload)
	}
	e = strings.ToLower(e)
	switch {
	case e == "":
		return "", errors.New("empty emotion")
	case len(e) > maxEmotionLen || strings.ContainsAny(e, "\r\n"):
		return "", errors.New("emotion is not a short label")
	}
	return e, nil
}

// identity reads the user_name and user_id of a perception message; the id
// defaults to the name, and one of them is required.
func identity(name, id optString) (nadine.UserRef, error) {
	u := nadine.UserRef{ID: str(id), Name: str(name)}
	if u.ID == "" {
		u.ID = u.Name
	}
	if u.ID == "" {
		return nadine.UserRef{}, errors.New("no user_id or user_name")
	}
	return u, nil
}

// parseUserDetected: {"user_name","user_id","confidence"}; a missing
// confidence means 1 (the recognizer did not say, so it is sure).
func parseUserDetected(payload []byte) (nadine.UserRef, float64, error) {
	var m struct {
		Name       optString `json:"user_name"`
		ID         optString `json:"user_id"`
		Confidence *float64  `json:"confidence"`
	}
	if !isJSONObject(payload) {
		return nadine.UserRef{}, 0, errors.New("want a JSON object")
	}
	if err := decodeObject(payload, &m); err != nil {
		return nadine.UserRef{}, 0, err
	}
	u, err := identity(m.Name, m.ID)
	if err != nil {
		return u, 0, err
	}
	c := 1.0
	if m.Confidence != nil {
		c = *m.Confidence
	}
	if math.IsNaN(c) || c < 0 || c > 1 {
		return nadine.UserRef{}, 0, errors.New("confidence out of range 0..1")
	}
	return u, c, nil
}

// parseFaceStored: {"user_name","user_id","status"}.
func parseFaceStored(payload []byte) (nadine.UserRef, string, error) {
	var m struct {
		Name   optString `json:"user_name"`
		ID     optString `json:"user_id"`
		Status optString `json:"status"`
	}
	if !isJSONObject(payload) {
		return nadine.UserRef{}, "", errors.New("want a JSON object")
	}
	if err := decodeObject(payload, &m); err != nil {
		return nadine.UserRef{}, "", err
	}
	u, err := identity(m.Name, m.ID)
	if err != nil {
		return u, "", err
	}
	return u, str(m.Status), nil
}

// parseUserLeft: an empty payload (whoever is there left), a plain-text id,
// or {"user_id"}.
func parseUserLeft(payload []byte) (nadine.UserRef, error) {
	if !isJSONObject(payload) {
		return nadine.UserRef{ID: plainText(payload)}, nil
	}
	var m struct {
		ID optString `json:"user_id"`
	}
	if err := decodeObject(payload, &m); err != nil {
		return nadine.UserRef{}, err
	}
	return nadine.UserRef{ID: str(m.ID)}, nil
}

// parseLanguage: plain text ("fr", "fr-FR", "French") or {"language"}.
func parseLanguage(payload []byte) (nadine.Language, error) {
	var s string
	if isJSONObject(payload) {
		var m struct {
			Language optString `json:"language"`
		}
		if err := decodeObject(payload, &m); err != nil {
			return "", err
		}
		s = str(m.Language)
	} else {
		s = plainText(payload)
	}
	if s == "" {
		return "", errors.New("empty language")
	}
	l, err := nadine.ParseLanguage(s)
	if err != nil {
		return "", errors.New("unsupported language")
	}
	return l, nil
}

// maxSpokenSeq bounds a reported sentence position (a turn has far fewer).
const maxSpokenSeq = 1 << 20

// parseSpoken: {"turn_id","seq"} for a sentence said whole, plus
// "cut": true and "words" when text-to-speech stopped inside it.
func parseSpoken(payload []byte) (nadine.SpokenReport, error) {
	if !isJSONObject(payload) {
		return nadine.SpokenReport{}, errors.New("want a JSON object")
	}
	var m struct {
		TurnID optString `json:"turn_id"`
		Seq    *int      `json:"seq"`
		Cut    *bool     `json:"cut"`
		Words  *int      `json:"words"`
	}
	if err := decodeObject(payload, &m); err != nil {
		return nadine.SpokenReport{}, err
	}
	r := nadine.SpokenReport{TurnID: str(m.TurnID), Words: -1}
	switch {
	case r.TurnID == "":
		return r, errors.New("no turn_id")
	case m.Seq == nil:
		return r, errors.New("no seq")
	case *m.Seq < 0 || *m.Seq > maxSpokenSeq:
		return r, errors.New("seq out of range")
	}
	r.Seq = *m.Seq
	r.Cut = m.Cut != nil && *m.Cut
	if r.Cut && m.Words != nil && *m.Words >= 0 {
		r.Words = *m.Words
	}
	return r, nil
}

// parseSpeechStarted reads the optional time of a voice activity start;
// any other payload is the signal alone.
func parseSpeechStarted(payload []byte) time.Time {
	if !isJSONObject(payload) {
		return time.Time{}
	}
	var m struct {
		Time json.RawMessage `json:"time"`
	}
	if json.Unmarshal(payload, &m) != nil {
		return time.Time{}
	}
	return parseTime(m.Time)
}
