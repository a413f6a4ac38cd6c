package react

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/nadine-robot/nadine"
)

// streamer watches a streamed model answer. Once the answer shows itself to
// be a final answer whose emotion is valid (the prompt puts action,
// emotion and emotion_intensity before action_input, category and
// causing_person after it), it decodes the reply text as it arrives and
// hands out each sentence as soon as it is complete. Tool calls and answers
// that do not follow the format are not streamed; they are parsed at the
// end.
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
	meta, err := streamHead(r, s.user)
	if err != nil {
		s.state = notStreaming
		return
	}
	s.meta, s.state, s.pos = meta, streaming, loc[1]
	if s.onMeta != nil {
		s.onMeta(meta)
	}
}

// streamHead validates the metadata of a final answer written before its
// reply text. Nadine's emotion and its intensity must be there, so that her
// face is set when she starts speaking; category and causing_person may
// come after the text (the prompt puts them there) but when a model writes
// them first they must be valid, since an error found before speaking can
// still be fed back.
func streamHead(r rawStep, user string) (step, error) {
	meta := step{Action: finalAction}
	if err := meta.setFeeling(r); err != nil {
		return step{}, err
	}
	if r.Category != nil {
		c, err := parseCategory(r.Category)
		if err != nil {
			return step{}, err
		}
		meta.Category = c
	}
	if r.CausingPerson != nil {
		p, err := parseCause(r.CausingPerson, user)
		if err != nil {
			return step{}, err
		}
		meta.CausingPerson = p
	}
	return meta, nil
}

// finish completes a final answer whose reply text was streamed, and so
// already spoken, from everything the model wrote. What was said cannot be
// unsaid, so the fields after the text are not retried: a missing or
// invalid category becomes "other", a missing or invalid causing_person
// "human", and the trace says so. The emotion is the one announced before
// the text.
func (s *streamer) finish(tr *nadine.Trace) step {
	s.flush()
	out := s.meta
	out.Input = strings.Join(s.sentences, " ")
	r, err := decodeStep(s.buf.String())
	if err != nil {
		tr.Notef("agent answer was streamed but its JSON did not close: %v", err)
	} else if in := inputText(r.ActionInput); strings.TrimSpace(in) != "" {
		out.Input = in
	}
	if out.Category == "" {
		c, err := parseCategory(r.Category)
		if err != nil {
			c = nadine.CategoryOther
			tr.Notef("agent answer: %v after the reply was spoken; category set to %q", err, c)
		}
		out.Category = c
	}
	if out.CausingPerson == "" {
		p, err := parseCause(r.CausingPerson, s.user)
		if err != nil {
			p = nadine.CausedByHuman
			tr.Notef("agent answer: %v after the reply was spoken; causing_person set to %q", err, p)
		}
		out.CausingPerson = p
	}
	return out
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
