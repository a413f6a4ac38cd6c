//go:build !race

package main

// raceDetector reports whether the tests run with the race detector, which
// makes the offline eval's measurement-only sets too slow to repeat.
const raceDetector = false
