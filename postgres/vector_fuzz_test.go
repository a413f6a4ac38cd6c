package postgres

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/internal/records"
)

// FuzzParseVectorText feeds pgvector's text form, as servers write it and
// broken, to the parser: it never panics, and what it accepts prints back
// to the same numbers.
func FuzzParseVectorText(f *testing.F) {
	for _, s := range []string{"[1,2,3]", "[0.1,-2.5e-05,3]", "[]", "[ 1 , 2 ]", "[1,,2]", "1,2", "[NaN,Infinity]",
		"[1e39]", "[" + strings.Repeat("0.25,", 767) + "0.25]", "{1,2}", "[", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parseVectorText(s)
		if err != nil {
			return
		}
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = strconv.FormatFloat(float64(x), 'g', -1, 32)
		}
		back, err := parseVectorText("[" + strings.Join(parts, ",") + "]")
		if err != nil {
			t.Fatalf("%q parsed to %v, which does not parse back: %v", s, v, err)
		}
		if !slices.EqualFunc(v, back, func(a, b float32) bool { return a == b || (math.IsNaN(float64(a)) && math.IsNaN(float64(b))) }) {
			t.Fatalf("%q parsed to %v, printed and parsed again to %v", s, v, back)
		}
	})
}

// FuzzVectorBytes checks that any bytes a bytea column holds decode
// without a panic, and that a vector encodes and decodes unchanged.
func FuzzVectorBytes(f *testing.F) {
	f.Add([]byte{})
	f.Add(records.EncodeVector([]float32{1, -2, 0.5}))
	f.Add([]byte{0, 0, 128})
	f.Fuzz(func(t *testing.T, b []byte) {
		var v vecCol
		if err := v.Scan(b); err != nil {
			if len(b)%4 == 0 {
				t.Fatalf("%d bytes refused: %v", len(b), err)
			}
			return
		}
		if len(v) != len(b)/4 {
			t.Fatalf("%d bytes decoded to %d values", len(b), len(v))
		}
		if got := records.EncodeVector(v); len(b) > 0 && string(got) != string(b) {
			t.Fatalf("bytes %x decoded and encoded again to %x", b, got)
		}
	})
}
