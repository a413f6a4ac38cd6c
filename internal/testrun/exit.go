package testrun

import (
	"os"
	"syscall"
	"testing"
)

// Main runs a test binary's tests and exits with Exit.
func Main(m *testing.M) { Exit(m.Run()) }

// Exit ends a test binary with code. A passing binary built with the race
// detector would sleep a second at exit (its atexit_sleep_ms, waiting for
// races in goroutines still running): about 45 binaries, 45 s of a run on
// two CPUs. The tests leave no goroutine and fail on any race found while
// they run, so a pass skips that sleep; a failure, or a coverage run (its
// profile is written at exit), exits as usual.
func Exit(code int) {
	if code == 0 && raceEnabled && testing.CoverMode() == "" {
		syscall.Exit(0)
	}
	os.Exit(code)
}

// SkipUnderRace skips an accuracy sweep under the race detector: it scores
// what thousands of generated inputs are read as, which the detector makes
// several times slower and does not check. Without -race it runs (go test
// ./offline ./speakable; .ci/run runs them after the race run).
func SkipUnderRace(t testing.TB) {
	t.Helper()
	if raceEnabled {
		t.Skip("an accuracy sweep: runs without -race (go test ./offline ./speakable)")
	}
}
