package agents_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/nadine-robot/nadine/internal/modeltest"
)

// TestMain loads the classifiers another test binary of these sources
// trained (modeltest.UseSharedCache) instead of training them again.
func TestMain(m *testing.M) {
	if _, err := modeltest.UseSharedCache(); err != nil {
		fmt.Fprintln(os.Stderr, err, "(the classifiers are trained)")
	}
	os.Exit(m.Run())
}
