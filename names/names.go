package names

import (
	"sort"
	"strings"

	"github.com/nadine-robot/nadine"
)

// Ratio is python-Levenshtein's ratio exactly (InDel distance, so the
// original's thresholds keep their meaning); case sensitive.
func Ratio(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	lensum := len(ra) + len(rb)
	if lensum == 0 {
		return 1
	}
	lcs := lcsLen(ra, rb)
	dist := lensum - 2*lcs
	return float64(lensum-dist) / float64(lensum)
}

// lcsLen returns the length of the longest common subsequence of a and b.
func lcsLen(a, b []rune) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(b) == 0 {
		return 0
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Candidate is a known user whose name resembles a given name.
type Candidate struct {
	UserID string  `json:"user_id"`
	Name   string  `json:"user_name"`
	Score  float64 `json:"score"`
}

// normalize prepares a name for comparison as the original did
// (name.lower().strip()).
func normalize(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// Similar returns the known users whose name scores at least low, best
// first, ties ordered by name then id so the result is deterministic.
func Similar(given string, known []nadine.UserRef, low float64) []Candidate {
	g := normalize(given)
	if g == "" {
		return nil
	}
	var out []Candidate
	for _, u := range known {
		n := normalize(u.Name)
		if n == "" {
			continue
		}
		if s := Ratio(g, n); s >= low {
			out = append(out, Candidate{UserID: u.ID, Name: u.Name, Score: s})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].UserID < out[j].UserID
	})
	return out
}

// Outcome is the result of matching a given name against known users.
type Outcome int

// The outcomes of name matching.
const (
	// NoMatch: the best score is below the low threshold (or there is no
	// candidate); the person is treated as a new user.
	NoMatch Outcome = iota
	// Ambiguous: the best score is in [low, high); Nadine asks the person to
	// confirm the best candidate's name.
	Ambiguous
	// StrongMatch: the best score is at least the high threshold; the person
	// is linked to that user at once.
	StrongMatch
)

// String returns "no_match", "ambiguous" or "strong_match".
func (o Outcome) String() string {
	switch o {
	case NoMatch:
		return "no_match"
	case Ambiguous:
		return "ambiguous"
	case StrongMatch:
		return "strong_match"
	}
	return "unknown"
}

// Classify applies the name-linking thresholds to the best of cands:
// StrongMatch at high, Ambiguous in [low, high), else NoMatch.
func Classify(cands []Candidate, high, low float64) Outcome {
	if len(cands) == 0 {
		return NoMatch
	}
	best := cands[0].Score
	for _, c := range cands[1:] {
		if c.Score > best {
			best = c.Score
		}
	}
	switch {
	case best >= high:
		return StrongMatch
	case best >= low:
		return Ambiguous
	}
	return NoMatch
}
