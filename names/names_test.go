package names_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/names"
)

// The wanted values are what python-Levenshtein's Levenshtein.ratio returns
// (the InDel normalized similarity, a substitution counting as two edits),
// computed independently with a weighted edit-distance table in Python and
// compared as exact float64 values.
func TestRatio(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"alex", "alex", 1.0},
		{"alex", "alexa", 0.8888888888888888},
		{"kitten", "sitting", 0.6153846153846154},
		{"Alice", "Alicia", 0.7272727272727273},
		{"", "", 1.0},
		{"abc", "", 0.0},
		{"", "abc", 0.0},
		// LCS("alex", "alice") = "ale": 2·3/9.
		{"alex", "alice", 0.6666666666666666},
		{"alice", "alex", 0.6666666666666666},
		{"alex", "Alex", 0.75},
		{"nadia", "nadine", 0.7272727272727273},
		{"john", "jon", 0.8571428571428571},
		{"michael", "micheal", 0.8571428571428571},
		{"christina", "kristina", 0.8235294117647058},
		{"han", "hans", 0.8571428571428571},
		{"zoë", "zoe", 0.6666666666666666},
		{"josé", "jose", 0.75},
		{"李明", "李明", 1.0},
		{"李明", "李敏", 0.5},
		{"müller", "mueller", 0.7692307692307693},
		{"abc", "xyz", 0.0},
		{"ab", "ba", 0.5},
		{"mohammed", "muhammad", 0.75},
		{"sarah", "sara", 0.8888888888888888},
		{"thalmann", "talman", 0.8571428571428571},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%s", tt.a, tt.b), func(t *testing.T) {
			if got := names.Ratio(tt.a, tt.b); got != tt.want {
				t.Errorf("Ratio(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

// A substitution costs two edits: plain Levenshtein (cost 1) would give
// 1 − 1/6 ≈ 0.833 for one changed letter in two 3-letter words, InDel 4/6.
func TestRatioSubstitutionCostsTwo(t *testing.T) {
	got, want := names.Ratio("cat", "cut"), 4.0/6.0
	if got != want {
		t.Fatalf("Ratio(cat, cut) = %v, want %v", got, want)
	}
}

func TestRatioSymmetric(t *testing.T) {
	words := []string{"", "a", "alex", "alexander", "sandra", "李明", "zoë"}
	for _, a := range words {
		for _, b := range words {
			if x, y := names.Ratio(a, b), names.Ratio(b, a); x != y {
				t.Errorf("Ratio(%q, %q) = %v but Ratio(%q, %q) = %v", a, b, x, b, a, y)
			}
		}
	}
}

func TestSimilar(t *testing.T) {
	known := []nadine.UserRef{
		{ID: "u1", Name: "Alice"},
		{ID: "u2", Name: "Alex"},
		{ID: "u3", Name: "  ALEXA "},
		{ID: "u4", Name: "Bob"},
		{ID: "u5", Name: ""},
		{ID: "u6", Name: "alex"},
	}
	tests := []struct {
		name  string
		given string
		low   float64
		want  []names.Candidate
	}{
		{
			name: "lowercased and trimmed, sorted by score then name then id", given: " alex ", low: 0.6,
			want: []names.Candidate{
				{UserID: "u2", Name: "Alex", Score: 1},
				{UserID: "u6", Name: "alex", Score: 1},
				{UserID: "u3", Name: "  ALEXA ", Score: 0.8888888888888888},
				{UserID: "u1", Name: "Alice", Score: 0.6666666666666666},
			},
		},
		{
			name: "low is inclusive", given: "Alex", low: 0.6666666666666666,
			want: []names.Candidate{
				{UserID: "u2", Name: "Alex", Score: 1},
				{UserID: "u6", Name: "alex", Score: 1},
				{UserID: "u3", Name: "  ALEXA ", Score: 0.8888888888888888},
				{UserID: "u1", Name: "Alice", Score: 0.6666666666666666},
			},
		},
		{name: "nothing close", given: "Zhang", low: 0.5, want: nil},
		{name: "empty given name matches nobody", given: "  ", low: 0, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := names.Similar(tt.given, known, tt.low)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Similar(%q) =\n%+v\nwant\n%+v", tt.given, got, tt.want)
			}
		})
	}
}

func TestClassify(t *testing.T) {
	const high, low = 0.85, 0.6
	c := func(scores ...float64) []names.Candidate {
		var out []names.Candidate
		for i, s := range scores {
			out = append(out, names.Candidate{UserID: fmt.Sprint(i), Score: s})
		}
		return out
	}
	tests := []struct {
		name  string
		cands []names.Candidate
		want  names.Outcome
	}{
		{"none", nil, names.NoMatch},
		{"exact", c(1), names.StrongMatch},
		{"at high", c(0.85), names.StrongMatch},
		{"just below high", c(0.8499), names.Ambiguous},
		{"at low", c(0.6), names.Ambiguous},
		{"below low", c(0.5999), names.NoMatch},
		{"unsorted uses the best", c(0.61, 0.9, 0.2), names.StrongMatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := names.Classify(tt.cands, high, low); got != tt.want {
				t.Errorf("Classify = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestOutcomeString(t *testing.T) {
	for o, want := range map[names.Outcome]string{names.NoMatch: "no_match", names.Ambiguous: "ambiguous", names.StrongMatch: "strong_match"} {
		if got := o.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", o, got, want)
		}
	}
}

func BenchmarkRatio(b *testing.B) {
	for b.Loop() {
		names.Ratio("christina", "kristina")
	}
}
