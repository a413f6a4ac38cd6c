package speakable

import (
	"testing"

	"github.com/nadine-robot/nadine/internal/modeltest"
)

// TestModelRoundTrip: a backstage model trained with the classifier's options
// and loaded from the cache judges sentences as the trained one does, bit for bit.
func TestModelRoundTrip(t *testing.T) {
	t.Parallel()
	all, err := backstageExamples()
	if err != nil {
		t.Fatal(err)
	}
	o := backstageOptions
	o.Seed = 101
	n := modeltest.RoundTrip(t, all, o, 3)
	t.Logf("%d sentences judged alike by the trained and the loaded model", n)
}
