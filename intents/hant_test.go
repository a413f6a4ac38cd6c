package intents

import "testing"

// TestSimplify: traditional characters read as the examples' simplified
// ones; simplified, Latin and mixed text is unchanged.
func TestSimplify(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"妳是誰做的呀？", "你是谁做的呀？"},
		{"謝謝妳喔", "谢谢你喔"},
		{"我叫什麼名字", "我叫什么名字"},
		{"對啦 刪吧", "对啦 删吧"},
		{"你是谁做的", "你是谁做的"},
		{"Nadine妳好, ça va?", "Nadine你好, ça va?"},
		{"", ""},
	} {
		if got := Simplify(c.in); got != c.want {
			t.Errorf("Simplify(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestHantPairsSorted: the binary search needs the pairs whole, sorted and
// each a change.
func TestHantPairsSorted(t *testing.T) {
	if len(hantPairs)%hantPairSize != 0 {
		t.Fatalf("%d bytes, not whole pairs", len(hantPairs))
	}
	for i := 0; i+hantPairSize <= len(hantPairs); i += hantPairSize {
		trad, simp := hantPairs[i:i+3], hantPairs[i+3:i+6]
		if trad == simp {
			t.Errorf("pair %d: %s maps to itself", i/hantPairSize, trad)
		}
		if i > 0 && hantPairs[i-hantPairSize:i-3] >= trad {
			t.Errorf("pair %d: %s is out of order", i/hantPairSize, trad)
		}
	}
}
