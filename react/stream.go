package react

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/nadine-robot/nadine"
)

// streamer watches a streamed model answer. Once the answer shows itself to
// be a final answer whose metadata is valid (the prompt puts action_input
// last), it decodes the reply text as it arrives and hands out each
// sentence as soon as it is complete. Tool calls and answers that do not
// follow the format are not streamed; they are parsed at the end.
type streamer struct {
	user  string
	tools []string

	buf       strings.Builder
	state     streamState
	meta      step
	pos       int // next byte of buf to decode, while streaming
	split     nadine.SentenceSplitter
	text      strings.Builder // the decoded reply so far
	sentences []string        // sentences handed out
	onMeta    func(step)
	onSent    func(string)
}

type streamState int

const (
	undecided streamState = iota
	streaming
	notStreaming
	complete
)

var actionInputKey = regexp.MustCompile(`"action_input"\s*:\s*"`)

func (s *streamer) write(delta string) {
	s.buf.WriteString(delta)
	if s.state == undecided {
		s.decide()
	}
	if s.state == streaming {
		s.decode()
	}
}

// decide looks for the start of the reply text and validates the metadata
// written before it.
func (s *streamer) decide() {
	b := s.buf.String()
	loc := actionInputKey.FindStringIndex(b)
	if loc == nil {
		return
	}
	obj := strings.LastIndexByte(b[:loc[0]], '{')
	if obj < 0 {
		s.state = notStreaming
		return
	}
	head := strings.TrimRight(strings.TrimSpace(b[obj:loc[0]]), ",") + "}"
	var r rawStep
	if json.Unmarshal([]byte(head), &r) != nil || r.Action == nil || !strings.EqualFold(strings.TrimSpace(*r.Action), finalAction) {
		s.state = notStreaming
		return
	}
	meta := step{Action: finalAction}
	if meta.setMeta(r, s.user) != nil {
		s.state = notStreaming
		return
	}
	s.meta, s.state, s.pos = meta, streaming, loc[1]
	if s.onMeta != nil {
		s.onMeta(meta)
	}
}

// decode turns the JSON string content that has arrived into text.
func (s *streamer) decode() {
	b := s.buf.String()
	i := s.pos
	end := -1
	for i < len(b) {
		c := b[i]
		if c == '"' {
			end = i
			break
		}
		if c == '\\' {
			if i+1 >= len(b) {
				break
			}
			if b[i+1] == 'u' {
				if i+6 > len(b) {
					break
				}
				// Keep a high surrogate with its pair.
				if h := b[i+2 : i+6]; strings.HasPrefix(strings.ToLower(h), "d8") || strings.HasPrefix(strings.ToLower(h), "d9") ||
					strings.HasPrefix(strings.ToLower(h), "da") || strings.HasPrefix(strings.ToLower(h), "db") {
					if i+12 > len(b) {
						break
					}
					i += 12
					continue
				}
				i += 6
				continue
			}
			i += 2
			continue
		}
		i++
	}
	stop := i
	if end >= 0 {
		stop = end
	}
	if stop > s.pos {
		var piece string
		if json.Unmarshal([]byte(`"`+b[s.pos:stop]+`"`), &piece) == nil {
			s.text.WriteString(piece)
			for _, sent := range s.split.Write(piece) {
				s.say(sent)
			}
		}
		s.pos = stop
	}
	if end >= 0 {
		s.state = complete
		s.flush()
	}
}

func (s *streamer) say(sent string) {
	sent = clean(sent)
	if sent == "" {
		return
	}
	s.sentences = append(s.sentences, sent)
	if s.onSent != nil {
		s.onSent(sent)
	}
}

// flush hands out the last, unterminated sentence.
func (s *streamer) flush() {
	if last := s.split.Flush(); last != "" {
		s.say(last)
	}
}

// started reports whether any of the reply was streamed.
func (s *streamer) started() bool { return s.state == streaming || s.state == complete }

var (
	urlPattern   = regexp.MustCompile(`(?i)\b(?:https?://|www\.)\S+`)
	fencePattern = regexp.MustCompile("(?s)```.*?(```|$)")
)

// clean enforces the rule "no URLs or code in the reply" whatever the model
// wrote, and tidies whitespace.
func clean(s string) string {
	s = fencePattern.ReplaceAllString(s, "")
	s = urlPattern.ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "`", "")
	return strings.Join(strings.Fields(s), " ")
}
