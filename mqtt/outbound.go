package mqtt

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"github.com/nadine-robot/nadine"
)

// Content types of outbound messages (MQTT 5 content type property).
const (
	ContentTypeJSON = "application/json"
	ContentTypeText = "text/plain; charset=utf-8"
)

// maxNameLen bounds animation names.
const maxNameLen = 64

// speechPayload is the JSON payload of TopicSpeak.
type speechPayload struct {
	Text     string          `json:"text"`
	Language nadine.Language `json:"language"`
	Locale   string          `json:"locale"`
	Seq      int             `json:"seq"`
	Final    bool            `json:"final"`
	TurnID   string          `json:"turn_id"`
	Filler   bool            `json:"filler,omitempty"` // only present (true) on fillers
}

// Speak also publishes a non-blank sentence as plain text on TopicSpeakText for
// plain-text TTS; an empty final Speech ends the turn on TopicSpeak only.
func (b *Bus) Speak(ctx context.Context, s nadine.Speech) error {
	topic := b.Topic(TopicSpeak)
	if s.Language == "" {
		s.Language = nadine.DefaultLanguage
	}
	switch {
	case !s.Language.Valid():
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: unsupported language %q", topic, s.Language)
	case !utf8.ValidString(s.Text) || !utf8.ValidString(s.TurnID):
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: invalid UTF-8", topic)
	case strings.TrimSpace(s.Text) == "" && !s.Final:
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: empty text", topic)
	case s.Seq < 0:
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: negative seq %d", topic, s.Seq)
	case s.Filler && s.Final:
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: a filler cannot end a turn", topic)
	}
	p := speechPayload{Text: s.Text, Language: s.Language, Locale: s.Language.Locale(), Seq: s.Seq, Final: s.Final, TurnID: s.TurnID, Filler: s.Filler}
	if !b.spokenBefore(TopicSpeak, s) {
		if err := b.publishJSON(ctx, TopicSpeak, p, false); err != nil {
			return err
		}
		b.markSpoken(TopicSpeak, s)
	}
	if strings.TrimSpace(s.Text) == "" || b.spokenBefore(TopicSpeakText, s) {
		return nil
	}
	props := textProps()
	props.User.Add("locale", p.Locale)
	props.User.Add("language", string(p.Language))
	props.User.Add("seq", strconv.Itoa(p.Seq))
	props.User.Add("final", strconv.FormatBool(p.Final))
	props.User.Add("turn_id", p.TurnID)
	if p.Filler {
		props.User.Add("filler", "true")
	}
	if err := b.publish(ctx, TopicSpeakText, []byte(s.Text), props, false); err != nil {
		return err
	}
	b.markSpoken(TopicSpeakText, s)
	return nil
}

// spokenBefore keeps a sentence asked again (after a reconnection or a retry)
// from being published twice; sentences without a turn id are not tracked.
func (b *Bus) spokenBefore(topic string, s nadine.Speech) bool {
	if s.TurnID == "" {
		return false
	}
	b.spokenMu.Lock()
	defer b.spokenMu.Unlock()
	_, ok := b.spoken.get(spokenKey(topic, s))
	if ok {
		b.log.Debug("mqtt: sentence already acknowledged; not published again", "topic", b.Topic(topic), "turn_id", s.TurnID, "seq", s.Seq)
	}
	return ok
}

// markSpoken records that the broker acknowledged the sentence on topic.
func (b *Bus) markSpoken(topic string, s nadine.Speech) {
	if s.TurnID == "" {
		return
	}
	b.spokenMu.Lock()
	b.spoken.put(spokenKey(topic, s), b.opts.Now())
	b.spokenMu.Unlock()
}

func spokenKey(topic string, s nadine.Speech) string {
	return topic + "\x00" + s.TurnID + "\x00" + strconv.Itoa(s.Seq)
}

// stopPayload is the JSON payload of TopicStop.
type stopPayload struct {
	TurnID string `json:"turn_id"`
	Reason string `json:"reason"`
}

// StopSpeaking tells text-to-speech to stop the turn's speech now and drop
// the sentences it queued, on TopicStop as JSON {"turn_id","reason"}.
func (b *Bus) StopSpeaking(ctx context.Context, turnID, reason string) error {
	if !utf8.ValidString(turnID) || !utf8.ValidString(reason) {
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: invalid UTF-8", b.Topic(TopicStop))
	}
	return b.publishJSON(ctx, TopicStop, stopPayload{TurnID: turnID, Reason: reason}, false)
}

// Animate asks control to play an animation, publishing its name as plain
// text on TopicAnimation (the behaviour tool's names: smile, wave, anger).
func (b *Bus) Animate(ctx context.Context, g nadine.Gesture) error {
	name := strings.TrimSpace(string(g))
	if name == "" || len(name) > maxNameLen || !utf8.ValidString(name) || strings.ContainsAny(name, "\r\n") {
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: invalid animation name", b.Topic(TopicAnimation))
	}
	return b.publish(ctx, TopicAnimation, []byte(name), textProps(), false)
}

// PublishAffect publishes an empty label as "neutral" and clamps the numbers
// (intensity 0..1, the others -1..1).
func (b *Bus) PublishAffect(ctx context.Context, a nadine.AffectState) error {
	topic := b.Topic(TopicAffect)
	if a.Label == "" {
		a.Label = nadine.Neutral
	}
	if !a.Label.Valid() {
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: unknown emotion %q", topic, a.Label)
	}
	for _, v := range []*float64{&a.Intensity, &a.Arousal, &a.Pleasure, &a.Dominance, &a.MoodArousal} {
		if math.IsNaN(*v) || math.IsInf(*v, 0) {
			return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: not a finite number", topic)
		}
	}
	a.Intensity = clamp(a.Intensity, 0, 1)
	a.Arousal = clamp(a.Arousal, -1, 1)
	a.Pleasure = clamp(a.Pleasure, -1, 1)
	a.Dominance = clamp(a.Dominance, -1, 1)
	a.MoodArousal = clamp(a.MoodArousal, -1, 1)
	return b.publishJSON(ctx, TopicAffect, a, false)
}

func clamp(v, lo, hi float64) float64 { return max(lo, min(hi, v)) }

// PublishUserInfo lets face recognition store the face under that id (face
// linking).
func (b *Bus) PublishUserInfo(ctx context.Context, u nadine.UserRef) error {
	u.ID, u.Name = strings.TrimSpace(u.ID), strings.TrimSpace(u.Name)
	if u.ID == "" {
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: empty user id", b.Topic(TopicUserInfo))
	}
	return b.publishJSON(ctx, TopicUserInfo, u, false)
}

// forgetPayload is TopicUserInfo's payload for an erased person.
type forgetPayload struct {
	ID     string `json:"user_id"`
	Name   string `json:"user_name"`
	Forget bool   `json:"forget"`
}

// ForgetFace has face recognition delete the face stored under that id and stop
// naming it.
func (b *Bus) ForgetFace(ctx context.Context, userID string) error {
	userID = strings.TrimSpace(userID)
	if userID == "" {
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: empty user id", b.Topic(TopicUserInfo))
	}
	return b.publishJSON(ctx, TopicUserInfo, forgetPayload{ID: userID, Forget: true}, false)
}

// RequestCapture asks perception to write the view to path; the caller waits
// for the file.
func (b *Bus) RequestCapture(ctx context.Context, path string) error {
	path = strings.TrimSpace(path)
	if path == "" || !utf8.ValidString(path) {
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: empty or invalid path", b.Topic(TopicCapture))
	}
	return b.publish(ctx, TopicCapture, []byte(path), textProps(), false)
}

// PlaySong asks control to play a song file, as JSON
// {"title","language","path"} on TopicSong.
func (b *Bus) PlaySong(ctx context.Context, s nadine.Song) error {
	topic := b.Topic(TopicSong)
	switch {
	case strings.TrimSpace(s.Path) == "":
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: empty song path", topic)
	case s.Language != "" && !s.Language.Valid():
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: unsupported language %q", topic, s.Language)
	}
	return b.publishJSON(ctx, TopicSong, s, false)
}

// languagePayload is the JSON payload of TopicSTTLanguage.
type languagePayload struct {
	Language nadine.Language `json:"language"`
	Locale   string          `json:"locale"`
}

// PublishLanguage is retained so that an STT process starting later gets the
// current language.
func (b *Bus) PublishLanguage(ctx context.Context, l nadine.Language) error {
	if !l.Valid() {
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: unsupported language %q", b.Topic(TopicSTTLanguage), l)
	}
	return b.publishJSON(ctx, TopicSTTLanguage, languagePayload{Language: l, Locale: l.Locale()}, true)
}

// Publish publishes a raw payload at QoS 1 on a topic relative to the
// prefix ("debug/state" goes to "<prefix>/debug/state").
func (b *Bus) Publish(ctx context.Context, topic string, payload []byte) error {
	if why := validRelativeTopic(topic); why != "" {
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: %s", b.Topic(topic), why)
	}
	return b.publish(ctx, topic, payload, nil, false)
}

func textProps() *paho.PublishProperties {
	utf8Format := byte(1)
	return &paho.PublishProperties{ContentType: ContentTypeText, PayloadFormat: &utf8Format}
}

func (b *Bus) publishJSON(ctx context.Context, rel string, v any, retain bool) error {
	payload, err := json.Marshal(v)
	if err != nil {
		return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: encode: %w", b.Topic(rel), err)
	}
	utf8Format := byte(1)
	props := &paho.PublishProperties{ContentType: ContentTypeJSON, PayloadFormat: &utf8Format}
	return b.publish(ctx, rel, payload, props, retain)
}

// publish retries only when nothing was sent, so a message whose
// acknowledgment was lost is an error, never published twice by us.
func (b *Bus) publish(ctx context.Context, rel string, payload []byte, props *paho.PublishProperties, retain bool) error {
	topic := b.Topic(rel)
	select {
	case <-b.quit:
		return nadine.Errorf(nadine.EUNAVAILABLE, "mqtt: publish %s: bus closed", topic)
	default:
	}
	ctx, cancel := context.WithTimeout(ctx, b.opts.PublishTimeout)
	defer cancel()
	for {
		if err := b.cm.AwaitConnection(ctx); err != nil {
			return nadine.Errorf(nadine.EUNAVAILABLE, "mqtt: publish %s: not connected: %w", topic, err)
		}
		_, err := b.cm.Publish(ctx, &paho.Publish{QoS: 1, Retain: retain, Topic: topic, Payload: payload, Properties: props})
		switch {
		case errors.Is(err, autopaho.ConnectionDownError):
			continue // the connection dropped before anything was sent
		case errors.Is(err, paho.ErrInvalidArguments):
			return nadine.Errorf(nadine.EINVALID, "mqtt: publish %s: %w", topic, err)
		case err != nil:
			return nadine.Errorf(nadine.EUNAVAILABLE, "mqtt: publish %s: %w", topic, err)
		}
		return nil
	}
}
