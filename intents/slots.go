package intents

import (
	"slices"
	"strings"

	"github.com/nadine-robot/nadine"
)

// maxContext is how many words before a slot (and after it) are learned as
// its context.
const maxContext = 3

// context is the words around a slot in the examples ("my name is" {name});
// strength is the share of their occurrences with the slot next to them.
type context struct {
	lang        nadine.Language
	left, right []string
	strength    float64
}

// slotContexts are the contexts each slot was seen in, by slot.
type slotContexts map[string][]context

// item is a word of an example, or a slot (word "" and slot set).
type item struct {
	word, slot string
}

func items(text string, lang nadine.Language) []item {
	var out []item
	for _, p := range pieces(text) {
		if p.slot != "" {
			out = append(out, item{slot: p.slot})
			continue
		}
		for _, t := range tokenizeIn(p.text, lang) {
			out = append(out, item{word: t.Norm})
		}
	}
	return out
}

// learnContexts reads the contexts of the slots of the examples at use,
// and how strongly each announces its slot.
func learnContexts(s *Set, use []int) slotContexts {
	out := slotContexts{}
	seen := map[string]bool{}
	byLang := map[nadine.Language][][]item{}
	for _, i := range use {
		ex := s.Examples[i]
		byLang[ex.Lang] = append(byLang[ex.Lang], items(ex.Text, ex.Lang))
		ps := pieces(ex.Text)
		for pi, p := range ps {
			if p.slot == "" {
				continue
			}
			c := context{lang: ex.Lang}
			if pi > 0 && ps[pi-1].slot == "" {
				c.left = lastWords(tokenizeIn(ps[pi-1].text, ex.Lang), maxContext)
			}
			if pi+1 < len(ps) && ps[pi+1].slot == "" {
				c.right = firstWords(tokenizeIn(ps[pi+1].text, ex.Lang), maxContext)
			}
			key := string(ex.Lang) + "|" + p.slot + "|" + strings.Join(c.left, " ") + "|" + strings.Join(c.right, " ")
			if !seen[key] {
				seen[key] = true
				out[p.slot] = append(out[p.slot], c)
			}
		}
	}
	for slot, cs := range out {
		for i := range cs {
			cs[i].strength = strength(byLang[cs[i].lang], slot, cs[i])
		}
		out[slot] = cs
	}
	return out
}

// strength is the share of the occurrences of c's words in the examples
// that have the slot next to them.
func strength(examples [][]item, slot string, c context) float64 {
	var n, k int
	match := func(it []item, at int, ws []string) bool {
		if at < 0 || at+len(ws) > len(it) {
			return false
		}
		for j, w := range ws {
			if it[at+j].word != w {
				return false
			}
		}
		return true
	}
	for _, it := range examples {
		for at := range it {
			switch {
			case len(c.left) > 0:
				if match(it, at, c.left) {
					n++
					if next := at + len(c.left); next < len(it) && it[next].slot == slot {
						k++
					}
				}
			case len(c.right) > 0:
				if match(it, at, c.right) {
					n++
					if at > 0 && it[at-1].slot == slot {
						k++
					}
				}
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

// lastWords returns the folded words of the last clause of toks, at most n.
func lastWords(toks []Token, n int) []string {
	var out []string
	for i := len(toks) - 1; i >= 0 && len(out) < n && toks[i].Clause == toks[len(toks)-1].Clause; i-- {
		out = append(out, toks[i].Norm)
	}
	slices.Reverse(out)
	return out
}

// firstWords returns the folded words of the first clause of toks, at most
// n.
func firstWords(toks []Token, n int) []string {
	var out []string
	for i := 0; i < len(toks) && len(out) < n && toks[i].Clause == toks[0].Clause; i++ {
		out = append(out, toks[i].Norm)
	}
	return out
}

// Span is where a slot's value may be, tokens [From, To) after (or before)
// Context words; Strength says how often those words announce the slot.
type Span struct {
	From, To int
	Context  int
	Strength float64
	// After: the context follows the value ("{name} mein Name"), none
	// precedes it.
	After bool
}

// maxValueWords bounds a slot value found without a context after it.
const maxValueWords = 4

// SlotSpans returns where slot's value may be in toks, longest context first
// (every language's when lang is ""); see docs/architecture.md#intents.
func (m *Model) SlotSpans(slot string, lang nadine.Language, toks []Token) []Span {
	var out []Span
	add := func(sp Span) {
		if sp.From >= sp.To {
			return
		}
		for i, x := range out {
			if x.From == sp.From && x.To == sp.To {
				if sp.Context > x.Context || sp.Context == x.Context && sp.Strength > x.Strength {
					out[i] = sp
				}
				return
			}
		}
		out = append(out, sp)
	}
	for _, c := range m.slots[slot] {
		if lang != "" && c.lang != lang {
			continue
		}
		switch {
		case len(c.left) > 0:
			for i := len(c.left); i <= len(toks); i++ {
				if !WordsAt(toks, i-len(c.left), c.left) {
					continue
				}
				end := clauseEnd(toks, i)
				if len(c.right) > 0 {
					j := findWords(toks, i+1, end, c.right)
					if j < 0 {
						continue
					}
					end = j
				}
				add(Span{From: i, To: end, Context: len(c.left) + len(c.right), Strength: c.strength})
			}
		case len(c.right) > 0:
			for j := 1; j < len(toks); j++ {
				if !WordsAt(toks, j, c.right) {
					continue
				}
				from := clauseStart(toks, j-1)
				if j-from <= maxValueWords {
					add(Span{From: from, To: j, Context: len(c.right), Strength: c.strength, After: true})
				}
			}
		default:
			// The slot alone: a clause that is only the value ("Alex",
			// "Je me présente : Aurélie Dubois.").
			for i := 0; i < len(toks); {
				end := clauseEnd(toks, i)
				if end-i <= maxValueWords {
					add(Span{From: i, To: end})
				}
				i = end
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Span) int {
		if a.Context != b.Context {
			return b.Context - a.Context
		}
		return cmpProb(a.Strength, b.Strength)
	})
	return out
}

// WordsAt reports whether the folded words of toks at i are ws, in one
// clause.
func WordsAt(toks []Token, i int, ws []string) bool {
	if i < 0 || i+len(ws) > len(toks) {
		return false
	}
	for j, w := range ws {
		if toks[i+j].Norm != w || toks[i+j].Clause != toks[i].Clause {
			return false
		}
	}
	return true
}

// findWords returns where ws starts in toks[from:to], or -1.
func findWords(toks []Token, from, to int, ws []string) int {
	for i := from; i+len(ws) <= to; i++ {
		if WordsAt(toks, i, ws) {
			return i
		}
	}
	return -1
}

func clauseEnd(toks []Token, i int) int {
	if i >= len(toks) {
		return len(toks)
	}
	j := i
	for j < len(toks) && toks[j].Clause == toks[i].Clause {
		j++
	}
	return j
}

func clauseStart(toks []Token, i int) int {
	j := i
	for j > 0 && toks[j-1].Clause == toks[i].Clause {
		j--
	}
	return j
}
