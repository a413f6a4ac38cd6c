package offline

import (
	"testing"

	"github.com/nadine-robot/nadine/internal/modeltest"
)

// TestModelRoundTrip: a model trained with the classifier's options (lookup
// slots, nearest examples) and loaded from the cache reads utterances as the
// trained one does, bit for bit.
func TestModelRoundTrip(t *testing.T) {
	t.Parallel()
	all, err := Examples()
	if err != nil {
		t.Fatal(err)
	}
	n := modeltest.RoundTrip(t, all, trainOptions, 4)
	t.Logf("%d utterances read alike by the trained and the loaded model", n)
}
