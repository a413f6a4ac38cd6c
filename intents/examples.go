package intents

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/nadine-robot/nadine"
)

// Example is one utterance of an intent, written in a language. Its text
// may hold slots ("my name is {name}"), filled when the model is trained.
type Example struct {
	Label string
	Lang  nadine.Language
	Text  string
	Line  int // in its file, for error messages and evaluation reports
}

// Set is the examples of every language, and the values each slot takes
// per language.
type Set struct {
	Examples []Example
	Values   map[nadine.Language]map[string][]string
}

// Parse adds one language's example file to s: "## label" starts an intent,
// "## @slot" the values of {slot}; blank lines and "#" lines are skipped.
func (s *Set) Parse(lang nadine.Language, text string) error {
	if !lang.Valid() {
		return fmt.Errorf("intents: examples: language %q", lang)
	}
	if s.Values == nil {
		s.Values = make(map[nadine.Language]map[string][]string)
	}
	if s.Values[lang] == nil {
		s.Values[lang] = make(map[string][]string)
	}
	label, slot := "", ""
	sc := bufio.NewScanner(strings.NewReader(text))
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "## "):
			name := strings.TrimSpace(line[3:])
			label, slot = "", ""
			if v, ok := strings.CutPrefix(name, "@"); ok {
				slot = v
			} else {
				label = name
			}
			if name == "" || name == "@" {
				return fmt.Errorf("intents: examples %s:%d: empty name", lang, n)
			}
			continue
		case strings.HasPrefix(line, "#"):
			continue
		}
		switch {
		case slot != "":
			s.Values[lang][slot] = append(s.Values[lang][slot], line)
		case label != "":
			if err := checkSlots(line); err != nil {
				return fmt.Errorf("intents: examples %s:%d: %w", lang, n, err)
			}
			s.Examples = append(s.Examples, Example{Label: label, Lang: lang, Text: line, Line: n})
		default:
			return fmt.Errorf("intents: examples %s:%d: an example before any \"## label\"", lang, n)
		}
	}
	return sc.Err()
}

// Check reports an example whose slot has no values in its language.
func (s *Set) Check() error {
	for _, ex := range s.Examples {
		for _, name := range slotNames(ex.Text) {
			if len(s.Values[ex.Lang][name]) == 0 {
				return fmt.Errorf("intents: examples %s:%d: slot {%s} has no values", ex.Lang, ex.Line, name)
			}
		}
	}
	return nil
}

// Labels returns the labels of the examples, sorted.
func (s *Set) Labels() []string {
	var out []string
	for _, ex := range s.Examples {
		if !slices.Contains(out, ex.Label) {
			out = append(out, ex.Label)
		}
	}
	slices.Sort(out)
	return out
}

// checkSlots reports an unbalanced brace.
func checkSlots(line string) error {
	open := false
	for _, r := range line {
		switch r {
		case '{':
			if open {
				return fmt.Errorf("nested slot in %q", line)
			}
			open = true
		case '}':
			if !open {
				return fmt.Errorf("unopened slot in %q", line)
			}
			open = false
		}
	}
	if open {
		return fmt.Errorf("unclosed slot in %q", line)
	}
	return nil
}

// slotNames returns the slots of an example's text, in order.
func slotNames(text string) []string {
	var out []string
	for {
		i := strings.IndexByte(text, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(text[i:], '}')
		if j < 0 {
			return out
		}
		out = append(out, text[i+1:i+j])
		text = text[i+j+1:]
	}
}

// piece is a part of an example's text: literal words or a slot.
type piece struct {
	text string
	slot string
}

func pieces(text string) []piece {
	var out []piece
	for {
		i := strings.IndexByte(text, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(text[i:], '}')
		if i > 0 {
			out = append(out, piece{text: text[:i]})
		}
		out = append(out, piece{slot: text[i+1 : i+j]})
		text = text[i+j+1:]
	}
	if text != "" {
		out = append(out, piece{text: text})
	}
	return out
}

// instance is an example with its slots filled: the text and which of its
// tokens fill a slot.
type instance struct {
	example int // index in Set.Examples
	variant int
	label   string
	lang    nadine.Language
	text    string
	toks    []Token
	key     uint64 // contentKey of the example and the variant: its place in a pass
}

// contentKey hashes an example's parts (FNV-1a, the same in every process):
// what training draws for an example depends on it alone.
func contentKey(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// expand makes variants of example i: slot values vary so an intent's examples
// see them all, and later variants hide words so an unknown word is no name.
// byContent draws both from the example's own content, not its place in the
// set, so an example added or removed elsewhere changes no other's variants.
func (s *Set) expand(i, variants int, dropout float64, byContent bool) []instance {
	ex := s.Examples[i]
	ps := pieces(ex.Text)
	key := contentKey(string(ex.Lang), ex.Label, ex.Text)
	draw := uint64(i)
	if byContent {
		draw = key % 1_000_003
	}
	rng := rand.New(rand.NewPCG(draw, 0x29))
	out := make([]instance, 0, variants)
	for k := range variants {
		var b strings.Builder
		var slotSpans [][2]int
		var slotNames []string
		for pi, p := range ps {
			if p.slot == "" {
				b.WriteString(p.text)
				continue
			}
			vals := s.Values[ex.Lang][p.slot]
			v := vals[(int(draw)*7+k*13+pi*3)%len(vals)]
			start := b.Len()
			b.WriteString(v)
			slotSpans = append(slotSpans, [2]int{start, b.Len()})
			slotNames = append(slotNames, p.slot)
		}
		text := b.String()
		toks := tokenizeIn(text, ex.Lang)
		for t := range toks {
			for si, sp := range slotSpans {
				if toks[t].Start >= sp[0] && toks[t].End <= sp[1] {
					toks[t].Slot, toks[t].SlotName = true, slotNames[si]
				}
			}
		}
		if k > 0 {
			for t := range toks {
				if !toks[t].Slot && rng.Float64() < dropout {
					toks[t].Hidden = true
				}
			}
		}
		out = append(out, instance{example: i, variant: k, label: ex.Label, lang: ex.Lang, text: text, toks: toks,
			key: contentKey(string(ex.Lang), ex.Label, ex.Text, strconv.Itoa(k))})
	}
	return out
}
