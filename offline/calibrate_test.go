//go:build !race

// The calibration measures accuracy, not concurrency: it is left out of
// race-detector runs, where its four trainings take minutes.

package offline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/intents"
)

// expectedIntent is the trace name an example's label should be understood
// as, out of context: a language request may be a switch, an unsupported
// language or the list of languages; what continues a worry is none of the
// intents without the worry.
func expectedIntent(label string) string {
	if label == "share" {
		return "default"
	}
	c, _ := parseLabel(label)
	return c.traceName()
}

func sameIntent(want, got string) bool {
	if strings.HasPrefix(want, "language") {
		return strings.HasPrefix(got, "language")
	}
	return want == got
}

// confidentWrongCost is what a wrong confident answer costs against an
// honest limit where an intent was meant: saying who made her to "tell me
// about cheese" misleads, "I cannot answer that" only disappoints.
const confidentWrongCost = 2

// TestCalibration cross-validates the engine's understanding on the
// examples (4 folds: each example is understood by a model trained
// without it) over a grid of thresholds, and checks that the configured
// threshold is the one of least cost, a wrong confident answer costing
// confidentWrongCost times an honest limit. It logs the grid
// (docs/offline.md).
func TestCalibration(t *testing.T) {
	if testing.Short() {
		t.Skip("trains four models")
	}
	s, err := Examples()
	if err != nil {
		t.Fatal(err)
	}
	base := New(Options{})
	thresholds := []float64{0.1, 0.15, 0.2, 0.25, 0.3, 0.4}
	type tally struct{ right, limited, wrong int }
	grid := map[float64]*tally{}
	for _, th := range thresholds {
		grid[th] = &tally{}
	}
	total := 0
	err = intents.Folds(s, trainOptions, 4, func(m *intents.Model, held []intents.HeldOut) {
		total += len(held)
		e := *base
		e.model = m
		for _, h := range held {
			r, ok := e.read(h.Text, h.Example.Lang, hints{})
			for _, th := range thresholds {
				e.threshold = th
				got := "default"
				if ok {
					got = e.decide(r, hints{}).traceName()
				}
				want := expectedIntent(h.Example.Label)
				switch {
				case sameIntent(want, got):
					grid[th].right++
				case got == "default":
					grid[th].limited++
				default:
					grid[th].wrong++
				}
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("| threshold | right | honest limit instead | wrong intent | cost |\n|---|---|---|---|---|\n")
	best := thresholds[0]
	cost := func(x *tally) int { return x.limited + confidentWrongCost*x.wrong }
	pct := func(n int) string { return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(total)) }
	for _, th := range thresholds {
		x := grid[th]
		if cost(x) < cost(grid[best]) {
			best = th
		}
		fmt.Fprintf(&b, "| %.2f | %s | %s | %s | %d |\n", th, pct(x.right), pct(x.limited), pct(x.wrong), cost(x))
	}
	t.Logf("cross-validated understanding of %d examples:\n%s", total, b.String())
	if got := grid[threshold]; cost(got) > cost(grid[best])+total/200 {
		t.Errorf("threshold %.2f costs %d, threshold %.2f %d", threshold, cost(got), best, cost(grid[best]))
	}
}
