package react

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/answer"
	"github.com/nadine-robot/nadine/labels"
	"github.com/nadine-robot/nadine/spoken"
)

// streamer speaks a final answer's sentences as they stream, and the emotion as
// soon as it is read; it uses the parser's rules, so only timing changes.
type streamer struct {
	p parser

	buf       strings.Builder
	state     streamState
	head      map[string]json.RawMessage // members before the reply text, by key
	meta      step
	notes     []string // normalizations of the head
	pos       int      // next byte of buf to decode, while streaming
	speech    spoken.Stream
	sentences []string        // sentences handed out
	text      strings.Builder // the reply text decoded so far
	heldNote  string          // what became of a reply a sentence stopped, once read
	// felt is set once the emotion was read and onMeta called.
	felt bool
	// tail is where the members after the reply text start in buf (after
	// its closing quote), while the emotion is read from them.
	tail   int
	onMeta func(step)
	onSent func(string)
	// onText is called once the reply text is complete and its last
	// sentence handed out, before the emotion may be read after it.
	onText func()
	// onComplete is called once the reply text is complete (the string
	// closed) and the emotion known, before the model writes the fields
	// after them (category, causing_person).
	onComplete func()
}

type streamState int

const (
	undecided streamState = iota
	streaming
	notStreaming
	complete
)

// thinkTagRE finds reasoning blocks, which come before the JSON.
var thinkTagRE = regexp.MustCompile(`(?i)<(think|thinking|reasoning|reflection)>`)

func (s *streamer) write(delta string) {
	s.buf.WriteString(delta)
	if s.state == undecided {
		s.decide()
	}
	if s.state == streaming {
		s.decode(false)
	}
	if s.state == complete && !s.felt {
		s.readTail()
	}
}

// objectStart returns where the answer's JSON object starts, after any
// reasoning block; wait is true while that cannot be told yet.
func objectStart(b string) (start int, wait bool) {
	from := 0
	for {
		rest := b[from:]
		brace := strings.IndexByte(rest, '{')
		loc := thinkTagRE.FindStringSubmatchIndex(rest)
		if loc == nil || (brace >= 0 && brace < loc[0]) {
			if brace < 0 {
				return -1, true
			}
			return from + brace, false
		}
		end := strings.Index(spoken.ASCIILower(rest[loc[1]:]), "</"+spoken.ASCIILower(rest[loc[2]:loc[3]])+">")
		if end < 0 {
			return -1, true
		}
		from += loc[1] + end + len(rest[loc[2]:loc[3]]) + 3
	}
}

// decide walks the members up to the reply text and starts streaming once
// they make a final answer with Nadine's emotion and intensity.
func (s *streamer) decide() {
	b := s.buf.String()
	obj, wait := objectStart(b)
	if wait {
		return
	}
	dec := json.NewDecoder(strings.NewReader(b[obj:]))
	if _, err := dec.Token(); err != nil {
		return
	}
	head := map[string]json.RawMessage{}
	for {
		t, err := dec.Token()
		if err != nil {
			return // incomplete: wait for more
		}
		name, ok := t.(string)
		if !ok {
			s.state = notStreaming // the object closed without a reply text
			return
		}
		k := labels.Key(name)
		if slices.ContainsFunc(inputKeys, func(x string) bool { return labels.Key(x) == k }) {
			s.start(head, b, obj+int(dec.InputOffset()))
			return
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return
		}
		if _, dup := head[k]; !dup {
			head[k] = v
		}
	}
}

// start streams the reply text whose key ends at off, if the head is a final
// answer; the emotion goes out now, or once readTail finds it.
func (s *streamer) start(head map[string]json.RawMessage, b string, off int) {
	rest := strings.TrimLeft(b[off:], " \t\r\n")
	if rest == "" {
		return
	}
	if rest[0] != ':' {
		s.state = notStreaming
		return
	}
	val := strings.TrimLeft(rest[1:], " \t\r\n")
	if val == "" {
		return
	}
	_, hasEmotion := labels.Get(head, emotionKeys...)
	_, hasIntensity := labels.Get(head, intensityKeys...)
	action, hasAction := labels.Get(head, actionKeys...)
	_, final := finalNames.Lookup(strings.TrimSpace(labels.Text(action)))
	if val[0] != '"' || !hasAction || !final {
		s.state = notStreaming // parsed at the end, by the same rules
		return
	}
	meta := step{Action: finalAction}
	if said := strings.TrimSpace(labels.Text(action)); said != finalAction {
		s.notes = append(s.notes, fmt.Sprintf("action %q read as %q", said, finalAction))
	}
	if _, ok := labels.Get(head, categoryKeys...); ok {
		var n []string
		meta.Category, n = readCategory(head)
		s.notes = append(s.notes, n...)
	}
	if _, ok := labels.Get(head, causeKeys...); ok {
		var n []string
		meta.CausingPerson, n = readCause(head, s.p.user)
		s.notes = append(s.notes, n...)
	}
	s.speech.Check = s.p.check.Check(s.p.lang)
	s.head, s.meta, s.state, s.pos = head, meta, streaming, len(b)-len(val)+1
	if hasEmotion && hasIntensity {
		s.feel(head)
	}
}

// feel reads Nadine's emotion from fields and announces it, once.
func (s *streamer) feel(fields map[string]json.RawMessage) {
	if s.felt {
		return
	}
	s.felt = true
	s.notes = append(s.notes, s.meta.readFeeling(fields)...)
	if s.onMeta != nil {
		s.onMeta(s.meta)
	}
}

// readTail reads the members after the reply text until the emotion is known or
// the object closes; a tail that is not members ends the wait too.
func (s *streamer) readTail() {
	final := false
	b := s.buf.String()
	rest := strings.TrimLeft(b[s.tail:], " \t\r\n")
	if rest != "" && rest[0] == ',' {
		in := "{" + rest[1:]
		dec := json.NewDecoder(strings.NewReader(in))
		if _, err := dec.Token(); err == nil {
			for {
				t, err := dec.Token()
				name, ok := t.(string)
				if err != nil || !ok {
					final = final || (err == nil && !ok) // the object closed
					break
				}
				var v json.RawMessage
				// A value is whole once something follows it: "1" may
				// still become "10".
				if dec.Decode(&v) != nil || dec.InputOffset() >= int64(len(in)) {
					break // incomplete: wait for more
				}
				if k := labels.Key(name); s.head[k] == nil {
					s.head[k] = v
				}
				_, hasEmotion := labels.Get(s.head, emotionKeys...)
				_, hasIntensity := labels.Get(s.head, intensityKeys...)
				if hasEmotion && hasIntensity {
					final = true
					break
				}
			}
		}
	} else if rest != "" {
		final = true // no members follow: nothing more to wait for
	}
	if !final {
		return
	}
	s.feel(s.head)
	if s.onComplete != nil {
		s.onComplete()
	}
}

// finish completes a final answer spoken as it streamed: what was said
// cannot be unsaid, so the trailing fields are never retried, only read.
func (s *streamer) finish(tr *nadine.Trace) step {
	s.flush()
	f := make(map[string]json.RawMessage, len(s.head))
	for k, v := range s.head {
		f[k] = v
	}
	v, ok := answer.Read(s.buf.String()).First()
	if all, isObj := labels.Fields(v.JSON); ok && isObj {
		for k, v := range all {
			if _, ok := f[k]; !ok {
				f[k] = v
			}
		}
	}
	s.feel(f) // the emotion, when the stream ended before it was read
	s.sayHeld()
	out := s.meta
	out.Input = strings.Join(s.sentences, " ")
	if !ok || !v.Complete {
		tr.Notef("agent answer was streamed but its JSON did not close")
	}
	notes := s.notes
	if s.heldNote != "" {
		notes = append(notes, s.heldNote)
	}
	if out.Category == "" {
		var n []string
		out.Category, n = readCategory(f)
		notes = append(notes, n...)
	}
	if out.CausingPerson == "" {
		var n []string
		out.CausingPerson, n = readCause(f, s.p.user)
		notes = append(notes, n...)
	}
	for _, n := range notes {
		tr.Notef("agent answer: %s", n)
	}
	return out
}

// decode turns the arrived JSON string content into text as the lenient
// reader does (package answer); with final set, an undecided mark ends it.
func (s *streamer) decode(final bool) {
	b := s.buf.String()
	i := s.pos
	end := -1
scan:
	for i < len(b) {
		switch b[i] {
		case '"':
			ends, known := answer.StringEnds(b, i+1)
			if !known && !final {
				break scan // wait for what follows the mark
			}
			if ends || !known {
				end = i
				break scan
			}
			i++
		case '\\':
			n := escapeLen(b[i:])
			if n == 0 {
				break scan // cut inside an escape
			}
			i += n
		default:
			i++
		}
	}
	stop := i
	if end >= 0 {
		stop = end
	} else {
		stop = holdDoubleEscape(b, s.pos, stop)
	}
	if stop > s.pos {
		chunk := answer.Unescape(b[s.pos:stop])
		s.text.WriteString(chunk)
		for _, sent := range s.speech.Write(chunk) {
			s.say(sent)
		}
		s.pos = stop
	}
	if end >= 0 {
		s.state, s.tail = complete, end+1
		s.flush()
		s.sayHeld()
		if s.onText != nil && s.spoke() {
			s.onText()
		}
		if !s.felt {
			s.readTail()
		} else if s.onComplete != nil {
			s.onComplete()
		}
	}
}

// escapeLen is the length of the escape at s's start, or 0 when cut off (a \u
// waits for four digits, a high surrogate for its pair).
func escapeLen(s string) int {
	if len(s) < 2 {
		return 0
	}
	if s[1] != 'u' {
		return 2
	}
	if len(s) < 6 {
		return 0
	}
	if h := strings.ToLower(s[2:6]); h >= "d800" && h <= "dbff" {
		if len(s) < 12 {
			return 0
		}
		return 12
	}
	return 6
}

// holdDoubleEscape moves stop back before a double escape that may be cut off,
// so that it is decoded in one piece.
func holdDoubleEscape(b string, from, stop int) int {
	tail := b[max(from, stop-7):stop]
	if i := strings.LastIndex(tail, `\\`); i >= 0 {
		after := tail[i+2:]
		if len(after) < 5 && (after == "" || after[0] == 'u') {
			return stop - len(tail) + i
		}
	}
	return stop
}

// sayHeld reads a reply whose stream a sentence that is not speech stopped
// after others were said, whole, as an answer that did not stream is read,
// and says what it keeps that was not said; once, when the text is over.
func (s *streamer) sayHeld() {
	err := s.speech.Held()
	if err == nil || s.heldNote != "" {
		return
	}
	said, _, serr := s.p.speech(s.text.String())
	if serr != nil || !s.spoke() {
		s.heldNote = "the rest of the reply was not said: " + err.Error()
		return
	}
	rest := spoken.Unsaid(said, s.sentences)
	for _, sent := range rest {
		s.say(sent)
	}
	s.heldNote = fmt.Sprintf("a sentence was not speech (%v): the reply was read whole, %d more sentence(s) said", err, len(rest))
}

func (s *streamer) say(sent string) {
	s.sentences = append(s.sentences, sent)
	if s.onSent != nil {
		s.onSent(sent)
	}
}

// flush hands out the last, unterminated sentence, once the answer is
// over.
func (s *streamer) flush() {
	if s.state == streaming {
		s.decode(true)
	}
	if s.state != streaming && s.state != complete {
		return
	}
	for _, sent := range s.speech.Flush() {
		s.say(sent)
	}
}

// spoke reports whether any of the reply was said as it streamed.
func (s *streamer) spoke() bool { return len(s.sentences) > 0 }
