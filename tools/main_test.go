package tools

import (
	"testing"

	"github.com/nadine-robot/nadine/internal/testrun"
)

func TestMain(m *testing.M) { testrun.Main(m) }
