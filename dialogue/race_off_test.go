//go:build !race

package dialogue_test

// raceOn says the tests run under the race detector (see race_on_test.go).
const raceOn = false
