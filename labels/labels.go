package labels

import (
	"strings"
	"unicode"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/names"
)

// Key folds a name for comparison: lower case, without spaces, underscores,
// hyphens, dots, quotes and other punctuation.
func Key(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// Table maps the names and synonyms of a kind of label to its canonical
// labels. Build it with NewTable.
type Table struct {
	canonical map[string]string // key of a canonical label → label
	synonyms  map[string]string // key of a synonym → label
	order     []string
}

// NewTable returns the table of labels, each with its synonyms; labels are
// listed in order (the order Labels returns).
func NewTable(labels []string, synonyms map[string][]string) Table {
	t := Table{canonical: map[string]string{}, synonyms: map[string]string{}, order: labels}
	for _, l := range labels {
		t.canonical[Key(l)] = l
	}
	for l, syns := range synonyms {
		for _, s := range syns {
			if _, ok := t.canonical[Key(s)]; !ok {
				t.synonyms[Key(s)] = l
			}
		}
	}
	return t
}

// Labels returns the canonical labels, in order.
func (t Table) Labels() []string { return t.order }

// Lookup returns the label s names, by key or synonym.
func (t Table) Lookup(s string) (string, bool) {
	k := Key(s)
	if k == "" {
		if l, ok := t.synonyms[""]; ok {
			return l, true
		}
		return "", false
	}
	if l, ok := t.canonical[k]; ok {
		return l, true
	}
	l, ok := t.synonyms[k]
	return l, ok
}

// Find returns the label a sentence mentions, trying runs of up to three
// words, canonical labels before synonyms.
func (t Table) Find(text string) (string, bool) {
	words := Words(text)
	for _, m := range []map[string]string{t.canonical, t.synonyms} {
		for i := range words {
			for n := min(3, len(words)-i); n >= 1; n-- {
				if l, ok := m[strings.Join(words[i:i+n], "")]; ok {
					return l, true
				}
			}
		}
	}
	return "", false
}

// Words returns the keys of the words of text (letters and digits; an
// underscore or a hyphen joins a word).
func Words(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-')
	}) {
		if k := Key(w); k != "" {
			out = append(out, k)
		}
	}
	return out
}

// Match returns the name s means: same key, the only containing one, or the
// only one at least 80% similar, so near misses never pick at random.
func Match(s string, names []string) (string, bool) {
	k := Key(s)
	if k == "" {
		return "", false
	}
	for _, n := range names {
		if Key(n) == k {
			return n, true
		}
	}
	if n, ok := unique(names, func(n string) bool {
		nk := Key(n)
		return len(k) >= 4 && len(nk) >= 4 && (strings.Contains(nk, k) || strings.Contains(k, nk))
	}); ok {
		return n, true
	}
	return unique(names, func(n string) bool { return ratio(Key(n), k) >= 0.8 })
}

func ratio(a, b string) float64 { return names.Ratio(a, b) }

func unique(xs []string, f func(string) bool) (string, bool) {
	found := ""
	for _, x := range xs {
		if f(x) {
			if found != "" && found != x {
				return "", false
			}
			found = x
		}
	}
	return found, found != ""
}

var emotions = NewTable(
	[]string{string(nadine.Joy), string(nadine.Sadness), string(nadine.Fear), string(nadine.Disgust),
		string(nadine.Anger), string(nadine.Surprise), string(nadine.Neutral)},
	map[string][]string{
		string(nadine.Joy): {"happy", "happiness", "joyful", "joyous", "glad", "delighted", "delight", "pleased", "cheerful",
			"excited", "excitement", "amused", "amusement", "content", "contentment", "love", "grateful", "gratitude",
			"pride", "proud", "euphoria", "euphoric", "elated", "enthusiastic", "enthusiasm", "glee", "positive", "happily"},
		string(nadine.Sadness): {"sad", "unhappy", "sorrow", "sorrowful", "melancholy", "disappointed", "disappointment",
			"grief", "lonely", "loneliness", "hurt", "depressed", "regret", "sadly"},
		string(nadine.Fear): {"afraid", "scared", "fearful", "anxious", "anxiety", "worried", "worry", "nervous",
			"terrified", "frightened", "alarmed"},
		string(nadine.Disgust): {"disgusted", "revulsion", "repulsed", "revolted", "gross", "contempt"},
		string(nadine.Anger): {"angry", "mad", "annoyed", "annoyance", "irritated", "irritation", "furious", "rage",
			"frustrated", "frustration", "offended", "outraged", "angrily"},
		string(nadine.Surprise): {"surprised", "astonished", "astonishment", "amazed", "amazement", "shocked", "shock",
			"startled", "wonder", "curious", "curiosity"},
		string(nadine.Neutral): {"none", "calm", "no emotion", "indifferent", "relaxed", "normal", "null", "n/a", "nil"},
	})

// Emotion returns the emotion s names ("Happy" → joy, "neutral" →
// neutral), by key or synonym.
func Emotion(s string) (nadine.Emotion, bool) {
	l, ok := emotions.Lookup(s)
	return nadine.Emotion(l), ok
}

// emotionsInProse leaves out the synonyms that mean something else in a
// sentence ("the content of", "I wonder", "none of").
var emotionsInProse = NewTable(emotions.Labels(), map[string][]string{
	string(nadine.Joy):      {"happy", "happiness", "joyful", "glad", "delighted", "pleased", "cheerful", "excited", "amused", "elated", "euphoric", "grateful"},
	string(nadine.Sadness):  {"sad", "unhappy", "sorrow", "melancholy", "disappointed", "grief", "lonely", "depressed"},
	string(nadine.Fear):     {"afraid", "scared", "fearful", "anxious", "worried", "nervous", "terrified", "frightened"},
	string(nadine.Disgust):  {"disgusted", "revulsion", "repulsed", "revolted"},
	string(nadine.Anger):    {"angry", "annoyed", "irritated", "furious", "rage", "frustrated", "offended", "outraged"},
	string(nadine.Surprise): {"surprised", "astonished", "amazed", "shocked", "startled"},
	string(nadine.Neutral):  {"calm", "indifferent", "no emotion"},
})

// FindEmotion returns the emotion a sentence names, its conclusion when it
// names several.
func FindEmotion(text string) (nadine.Emotion, bool) {
	l, ok := emotionsInProse.Conclusion(text)
	return nadine.Emotion(l), ok
}

var categories = NewTable(
	[]string{string(nadine.CategoryGreeting), string(nadine.CategoryFarewell), string(nadine.CategoryInsult),
		string(nadine.CategoryComplement), string(nadine.CategoryInformation), string(nadine.CategoryOther)},
	map[string][]string{
		string(nadine.CategoryGreeting):    {"greet", "greetings", "hello", "salutation", "welcome", "first greeting"},
		string(nadine.CategoryFarewell):    {"goodbye", "bye", "leaving", "parting", "end conversation"},
		string(nadine.CategoryInsult):      {"offense", "offence", "offensive", "rude", "rudeness", "abuse", "insulting"},
		string(nadine.CategoryComplement):  {"compliment", "compliments", "complements", "praise", "flattery"},
		string(nadine.CategoryInformation): {"information", "info", "info request", "question", "request", "query", "inquiry", "enquiry", "ask", "information query"},
		string(nadine.CategoryOther): {"small talk", "chitchat", "chit chat", "statement", "conversation", "misc",
			"miscellaneous", "general", "opinion", "comment", "chat", "continue conversation", "none"},
	})

// Category returns the category s names, by key or synonym.
func Category(s string) (nadine.Category, bool) {
	l, ok := categories.Lookup(s)
	return nadine.Category(l), ok
}

var (
	selfWords   = keySet("self", "nadine", "me", "myself", "i", "robot", "herself", "nadine herself", "the robot")
	otherWords  = keySet("someone else", "someone", "somebody", "somebody else", "other", "others", "another person", "third party", "other person")
	userWords   = keySet("user", "the user", "person", "the person", "visitor", "speaker", "you", "interlocutor", "guest", "human user", "the human")
	nobodyWords = keySet("", "unknown", "unknown user", "none", "null", "nil", "nobody", "no one", "n/a", "na", "not applicable")
)

func keySet(xs ...string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		m[Key(x)] = true
	}
	return m
}

// CausingPerson reads who caused Nadine's emotion; when nothing usable was
// written ok is false and the result is the user if known, else human.
func CausingPerson(s, user string) (string, bool) {
	known := strings.TrimSpace(user) != "" && !strings.EqualFold(strings.TrimSpace(user), nadine.UnknownUser)
	orUser := nadine.CausedByHuman
	if known {
		orUser = strings.TrimSpace(user)
	}
	p := strings.Trim(strings.TrimSpace(s), " .,!?;:\"'`*")
	k := Key(p)
	switch {
	case known && k == Key(user):
		return orUser, true
	case k == Key(nadine.CausedByHuman):
		return nadine.CausedByHuman, true
	case selfWords[k]:
		return nadine.CausedBySelf, true
	case otherWords[k]:
		return nadine.CausedBySomeoneElse, true
	case userWords[k]:
		return orUser, true
	case nobodyWords[k]:
		return orUser, false
	case isName(p):
		return p, true
	}
	return orUser, false
}

// isName reports whether s can be a person's name: up to five words of
// letters (with ' - .), at most 60 characters.
func isName(s string) bool {
	if s == "" || len([]rune(s)) > 60 || len(strings.Fields(s)) > 5 {
		return false
	}
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsMark(r) || r == ' ' || r == '\'' || r == '-' || r == '.' || r == '’') {
			return false
		}
	}
	return true
}
