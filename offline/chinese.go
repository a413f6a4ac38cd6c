package offline

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// Chinese reading rules (docs/offline.md, "Round zh11"): Chinese is written
// without spaces, so the classifier's tokens are characters, and a word of
// two characters ("挥手") is two tokens each shared with other intents.

// ownWordLabels are the gestures she makes on request, the leave-taking
// and three feelings: a request names the movement by its own verb, a
// farewell is said with its own word, a worry, tiredness or illness with
// theirs (压力, 困, 舒服), whatever else comes around it ("机器人阿姨拜拜",
// "我奶奶陪我来的我最近非常焦虑"). Not sadness: its own 糟 is in bad news's
// "很糟糕的消息" too, which the news reading tells better.
var ownWordLabels = []string{"wave", "smile", "farewell", "feeling.stress", "feeling.tired", "feeling.sick"}

// ownWordMin is how many of a label's examples, and no other label's, must
// use a character or a pair of characters to make it the label's own word
// (挥, 招手, 微笑, 拜拜, 焦虑): three let in 向 ("to"), a preposition of any
// request.
const ownWordMin = 4

// ownWordSpread is how many labels' examples may use each character of an
// own pair: more make it a function word's ("不过" is "but", 不 in 37
// labels; "我压", "好累" hold "I" and "very").
const ownWordSpread = 15

// ownWordFloor is the least probability of the label whose own word an
// utterance holds: the classifier must read it at all ("你会不会招手" wave
// 0.12, "拜拜咯漂亮的机器人姐姐" farewell 0.13).
const ownWordFloor = 0.1

// hanOwnWords maps each Chinese character and pair of characters that only
// one of ownWordLabels' examples use, in at least ownWordMin of them, to
// it; read off the examples, so a new example of another label that uses
// one takes it out. A family name is no one's own word: names come with
// any intent (张 is in 紧张).
var hanOwnWords = sync.OnceValue(func() map[string]string {
	s, err := Examples()
	if err != nil {
		return nil // the model's training reports it
	}
	uses := map[string]map[string]int{}  // word → label → examples
	spread := map[rune]map[string]bool{} // character → labels
	for _, ex := range s.Examples {
		if ex.Lang != nadine.Chinese {
			continue
		}
		seen := map[string]bool{}
		for _, run := range hanRuns(intents.Simplify(ex.Text)) {
			for i, r := range run {
				if spread[r] == nil {
					spread[r] = map[string]bool{}
				}
				spread[r][ex.Label] = true
				for n := 1; n <= 2 && i+n <= len(run); n++ {
					w := string(run[i : i+n])
					if seen[w] {
						continue
					}
					seen[w] = true
					if uses[w] == nil {
						uses[w] = map[string]int{}
					}
					uses[w][ex.Label]++
				}
			}
		}
	}
	out := map[string]string{}
	for w, labels := range uses {
		rs := []rune(w)
		if len(rs) == 1 && strings.ContainsRune(surnames, rs[0]) ||
			len(rs) == 2 && (len(spread[rs[0]]) > ownWordSpread || len(spread[rs[1]]) > ownWordSpread) {
			continue
		}
		for _, l := range ownWordLabels {
			if len(labels) == 1 && labels[l] >= ownWordMin {
				out[w] = l
			}
		}
	}
	return out
})

// hanRuns splits s into its runs of Chinese characters.
func hanRuns(s string) [][]rune {
	var runs [][]rune
	var run []rune
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			run = append(run, r)
			continue
		}
		if len(run) > 0 {
			runs = append(runs, run)
		}
		run = nil
	}
	if len(run) > 0 {
		runs = append(runs, run)
	}
	return runs
}

// hanFirst is the reading a Chinese rule puts before the classifier's
// order: a gesture, farewell or feeling said by its own word, a question of
// whether she recalls the speaker, or a language named by a name the
// examples lack.
func (e *Engine) hanFirst(r reading) (candidate, bool) {
	if c, ok := hanOwnWord(r); ok {
		return c, true
	}
	if c, ok := hanRecallOfMe(r); ok {
		return c, true
	}
	if c, ok := hanPraise(r); ok {
		return c, true
	}
	return e.hanLanguageSynonym(r)
}

// hanQuestionWords ask in Chinese, or ask her to tell.
var hanQuestionWords = []string{"吗", "嘛", "呢", "什么", "啥", "谁", "哪", "几", "怎", "多少", "为何", "说说", "讲讲", "介绍"}

// hanAsks reports whether a Chinese utterance asks or asks her to tell: a
// question word, or a verb said twice around 不 or 没 ("会不会", "喜不喜欢").
func hanAsks(text string) bool {
	simple := intents.Simplify(text)
	if strings.ContainsAny(simple, "?？") || slices.ContainsFunc(hanQuestionWords, func(w string) bool { return strings.Contains(simple, w) }) {
		return true
	}
	rs := []rune(simple)
	for i := 0; i+2 < len(rs); i++ {
		if (rs[i+1] == '不' || rs[i+1] == '没') && rs[i] == rs[i+2] && unicode.Is(unicode.Han, rs[i]) {
			return true
		}
	}
	return false
}

// hanPraise is the praise a Chinese statement to her says of her looks,
// voice or manner when the classifier reads it weakly as a question about
// them: "你长得挺俊的" is who she looks like (0.31) before praise (0.15),
// "你的声音好甜" how she speaks (0.33). Asked, it asks of the fact ("你的
// 声音是怎么来的").
func hanPraise(r reading) (candidate, bool) {
	top := r.whole.Top()
	if r.lang != nadine.Chinese || top.Prob >= wholeSure || !strings.HasPrefix(top.Label, "knowledge.") && !strings.HasPrefix(top.Label, "persona.") ||
		!addressed(r.toks) || hanAsks(r.text) {
		return candidate{}, false
	}
	best := candidate{}
	for _, l := range r.whole.Labels {
		if stance(l.Label) == "compliment" && l.Prob > best.prob {
			best = candidate{l.Label, l.Prob}
		}
	}
	return best, best.prob >= ownWordFloor
}

// hanHeld is, for each supported language, a Chinese name of it the
// examples' {lang} values hold (中文, 英文), and hanSynonyms maps each
// Chinese name of one that they lack (华语, Singapore's Mandarin; 国语,
// Taiwan's) to it, both read off hanLanguages and the values.
var (
	hanHeld = sync.OnceValue(func() map[nadine.Language]string {
		out := map[nadine.Language]string{}
		s, err := Examples()
		if err != nil {
			return out // the model's training reports it
		}
		for _, v := range s.Values[nadine.Chinese]["lang"] {
			if l, ok := hanLanguages[v]; ok && (out[l] == "" || v < out[l]) {
				out[l] = v
			}
		}
		return out
	})
	hanSynonyms = sync.OnceValue(func() map[string]string {
		out := map[string]string{}
		for name, l := range hanLanguages {
			if held := hanHeld()[l]; held != "" && !hanHeldName(name) {
				out[name] = held
			}
		}
		return out
	})
)

// hanHeldName reports whether the examples' {lang} values hold a name.
func hanHeldName(name string) bool {
	s, err := Examples()
	return err == nil && slices.Contains(s.Values[nadine.Chinese]["lang"], name)
}

// hanLanguageSynonym reads a Chinese utterance that names a language by a
// name the examples lack, Chinese or Latin ("我们讲English好不好"), as it
// would read with the name they hold: "可以讲华语吗" is none 0.44 with 华语,
// a request to speak Chinese with 中文.
func (e *Engine) hanLanguageSynonym(r reading) (candidate, bool) {
	if r.lang != nadine.Chinese {
		return candidate{}, false
	}
	var b strings.Builder
	last, swapped := 0, false
	for _, t := range r.toks {
		if l, ok := languageOf(t); ok && hanHeld()[l] != "" {
			b.WriteString(r.text[last:t.Start])
			b.WriteString(hanHeld()[l])
			last, swapped = t.End, true
		}
	}
	b.WriteString(r.text[last:])
	text := intents.Simplify(b.String())
	for name, held := range hanSynonyms() {
		if strings.Contains(text, name) {
			text, swapped = strings.ReplaceAll(text, name, held), true
		}
	}
	if !swapped {
		return candidate{}, false
	}
	top := e.classifyWhole(intents.Tokenize(text)).Top()
	if (top.Label != "language" && top.Label != "languages") || top.Prob < e.threshold {
		return candidate{}, false
	}
	return candidate{top.Label, top.Prob}, true
}

// recallFacts are the knowledge facts of how she recognizes and remembers
// people; hanHow are the words that ask how.
var (
	recallFacts = map[string]bool{"knowledge.recognize": true, "knowledge.memory": true}
	hanHow      = []string{"怎么", "怎样", "如何", "为什么", "为啥"}
)

// recallOfMe is a verb of recall (认, 记, with what completes it: 得, 出,
// 住) whose object is the speaker, the question's end or its particle
// after it: "你还认得出我吗", not "你还会记得我跟你说的事吗".
var recallOfMe = regexp.MustCompile(`[认记][得出住识起]*我([吗不么吧呀啊嘛呢没了是]|$)`)

// hanRecallOfMe is the remembering a Chinese question asks when it is read
// as how she recognizes or remembers people but asks it of the speaker, not
// how ("你现在还认得出我吗": recognize 0.39, remember 0.26), when the
// classifier reads the remembering at all.
func hanRecallOfMe(r reading) (candidate, bool) {
	top := r.whole.Top()
	p := r.whole.Prob("remember")
	if r.lang != nadine.Chinese || !recallFacts[top.Label] || top.Prob >= wholeSure || p < ownWordFloor || !addressed(r.toks) {
		return candidate{}, false
	}
	han := foldedHan(r.toks)
	if slices.ContainsFunc(hanHow, func(w string) bool { return strings.Contains(han, w) }) || !recallOfMe.MatchString(han) {
		return candidate{}, false
	}
	return candidate{"remember", p}, true
}

// hanOwnWord is the gesture, farewell or feeling a Chinese utterance says
// by its own word when the classifier reads it, if weakly, and nothing else
// plainly: "你的手能动吗 挥一下看看" read as how she sees (0.21) before the
// wave (0.14). A feeling only when the speaker speaks of themself or not
// to her.
func hanOwnWord(r reading) (candidate, bool) {
	if r.lang != nadine.Chinese || r.whole.Top().Prob >= wholeSure {
		return candidate{}, false
	}
	// A feeling is told of oneself: "你会紧张吗" asks of hers.
	ofHers := addressed(r.toks) && !firstPerson(r.toks)
	best := candidate{}
	for _, run := range hanRuns(intents.Simplify(r.text)) {
		for i := range run {
			for n := 1; n <= 2 && i+n <= len(run); n++ {
				g, ok := hanOwnWords()[string(run[i:i+n])]
				if ofHers && strings.HasPrefix(g, "feeling.") {
					continue
				}
				if p := r.whole.Prob(g); ok && p >= ownWordFloor && p > best.prob {
					best = candidate{g, p}
				}
			}
		}
	}
	return best, best.label != ""
}

// hanNameNouns say "name" or "nickname" in Chinese; 叫 or 是 after one
// gives the name whatever kind of name comes before it ("我的英文名叫Kelvin",
// "我中文名叫陈凯文", "我的小名是豆豆", "我的外号叫大头"): the examples' "我叫"
// and "我的名字是" do not reach past the kind.
var hanNameNouns = []string{"名字", "名", "外号", "绰号", "昵称"}

// hanNamedAs returns the name a first-person Chinese clause gives after
// "name" and 叫 or 是, Chinese up to a stop or Latin words up to the
// clause's end, else "".
func hanNamedAs(toks []intents.Token, text string) string {
	self := -1
	for i, t := range toks {
		if i > 0 && t.Clause != toks[i-1].Clause {
			self = -1
		}
		if t.Norm == "我" {
			self = i
		}
		if self < 0 || t.Norm != "叫" && t.Norm != "是" || i+1 >= len(toks) {
			continue
		}
		named := false
		for _, n := range hanNameNouns {
			k := len([]rune(n))
			named = named || i-k > self && foldedHan(toks[i-k:i]) == n
		}
		if !named {
			continue
		}
		next := toks[i+1]
		if next.Han {
			return hanName(text[next.Start:], false)
		}
		j := i + 1
		for j < len(toks) && !toks[j].Han && toks[j].Clause == next.Clause && isNameWord(toks[j].Text) && j-i <= 3 {
			j++
		}
		if j > i+1 {
			return text[next.Start:toks[j-1].End]
		}
	}
	return ""
}

// hanSelfNamed returns the name a first-person Chinese clause gives where
// the examples' contexts do not reach: after a kind of name (hanNamedAs),
// or at the end of "我是…的" (hanNameAfterOf), else "".
func hanSelfNamed(toks []intents.Token, text string) string {
	if name := hanNamedAs(toks, text); name != "" {
		return name
	}
	return hanNameAfterOf(toks, text)
}

// hanNameAfterOf returns the name that ends a clause "我是…的<name>" ("我是从
// 台北来的林佳颖", "大家好，我是来自广州的陈晓", "我是三班的李子轩"): Chinese
// puts what one is, where from or of which class, before the noun, here a
// full or familiar name (a family name first, hanName). A pair of its
// characters that the examples use as a word is a noun ("我是公司的程序员").
func hanNameAfterOf(toks []intents.Token, text string) string {
	for i := 1; i < len(toks); i++ {
		if toks[i-1].Norm != "我" || toks[i].Norm != "是" {
			continue
		}
		end := clauseEnd(toks, i)
		for j := end - 1; j > i; j-- {
			if toks[j].Norm != "的" || j+1 >= end {
				continue
			}
			name := hanName(text[toks[j+1].Start:], true)
			n := utf8.RuneCountInString(name)
			if name == "" || j+1+n < end && !strings.Contains(hanStops, toks[j+1+n].Norm) || hanWords()[string([]rune(intents.Simplify(name))[:2])] {
				break
			}
			return name
		}
	}
	return ""
}

// hanWords are the pairs of characters the Chinese examples use, but for
// the introductions' own: the words a name after "的" cannot start with.
var hanWords = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	s, err := Examples()
	if err != nil {
		return out // the model's training reports it
	}
	for _, ex := range s.Examples {
		if ex.Lang != nadine.Chinese || ex.Label == "name" {
			continue
		}
		for _, run := range hanRuns(intents.Simplify(ex.Text)) {
			for i := 0; i+2 <= len(run); i++ {
				out[string(run[i:i+2])] = true
			}
		}
	}
	return out
})

// foldedHan joins Chinese tokens' simplified forms.
func foldedHan(toks []intents.Token) string {
	var b []byte
	for _, t := range toks {
		b = append(b, t.Norm...)
	}
	return string(b)
}

// hanFamiliar are the prefixes of a familiar name made of a family name
// ("小蔡", "老王", "阿陈"): after the ambiguous "我是" it is a name as plainly
// as the family name alone would be.
const hanFamiliar = "小老阿"

// hanNickname reports whether a name is a familiar prefix and a family name.
func hanNickname(name []rune) bool {
	return len(name) == 2 && strings.ContainsRune(hanFamiliar, name[0]) && strings.ContainsRune(surnames, name[1])
}

// hanIntroduction reads two Chinese introductions without a context word:
// a full name alone right after her greeting ("下午好呀机器人" — "周杰"), and
// a full name as the first clause, then what comes with an introduction
// ("李明，很高兴认识你") or what the person says of themself and not to her
// ("李明，上海来的，来新加坡出差"). A family name begins
// the name (hanFullName): "上海，来出差的" is no one.
func (e *Engine) hanIntroduction(r reading, h hints) (classified, bool) {
	if r.lang != nadine.Chinese || len(r.toks) == 0 || !r.toks[0].Han {
		return classified{}, false
	}
	end := clauseEnd(r.toks, 0)
	first := r.text[r.toks[0].Start:r.toks[end-1].End]
	if !hanFullName(first) || hanName(first, true) != first {
		return classified{}, false
	}
	rest := r.toks[end:]
	switch {
	case len(rest) == 0 && h.greeted && r.whole.Top().Prob < wholeSure:
	case len(rest) > 0 && e.comesWithName(rest, r.text):
	case len(rest) > 0 && !addressed(rest) && !asking(rest, r.text[rest[0].Start:]) && !social(e.classifyPart(rest).Top().Label):
	default:
		return classified{}, false
	}
	return classified{intent: iName, label: "name", prob: r.whole.Prob("name"), lang: r.lang, name: first}, true
}

// compoundSurnames are the Chinese family names of two characters: "我姓欧阳，
// 叫欧阳娜娜" gives 欧阳娜娜, not the family name alone.
var compoundSurnames = strings.Fields("欧阳 司马 上官 诸葛 东方 慕容 司徒 公孙 夏侯 皇甫 尉迟 长孙 宇文 令狐 西门 独孤 南宫 端木 申屠 轩辕")

// compoundSurname reports whether a name starts with a two-character family name.
func compoundSurname(name string) bool {
	simple := intents.Simplify(name)
	return slices.ContainsFunc(compoundSurnames, func(f string) bool { return strings.HasPrefix(simple, f) })
}

// withoutCalledAs drops the 作 or 做 of "叫作", "叫做" ("to be called") that
// a name read after 叫 would start with ("我叫作陈小红"); neither is a family
// name.
func withoutCalledAs(rest string) string {
	for _, v := range []string{"作", "做"} {
		if after, ok := strings.CutPrefix(rest, v); ok {
			if r, _ := utf8.DecodeRuneInString(after); unicode.Is(unicode.Han, r) {
				return after
			}
		}
	}
	return rest
}
