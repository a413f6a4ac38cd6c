//go:build race

package dialogue_test

// raceOn says the tests run under the race detector: the tables that only
// check what is spoken (hundreds of turns each, ten times slower there)
// are left to the plain run; the same engine paths are raced by the
// other tests.
const raceOn = true
