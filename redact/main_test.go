package redact_test

import (
	"testing"

	"github.com/nadine-robot/nadine/internal/testrun"
)

func TestMain(m *testing.M) { testrun.Main(m) }
