package offline_test

import (
	"testing"

	"github.com/nadine-robot/nadine/internal/modeltest"
)

// TestMain loads the classifiers another test binary of these sources trained.
func TestMain(m *testing.M) { modeltest.Main(m) }
