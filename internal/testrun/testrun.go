// Package testrun holds what the test binaries' TestMains share: how they
// exit, and how wide the command packages run their waiting tests.
package testrun

import (
	"flag"
	"strconv"
)

// WidenParallel raises -test.parallel to n when the command line left it at
// its default (GOMAXPROCS), for packages whose parallel tests mostly wait on
// child processes, brokers and timers: on 2 CPUs, two at a time leaves them
// idle. Call it after flag.Parse.
func WidenParallel(n int) {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	f := flag.Lookup("test.parallel")
	if set || f == nil {
		return
	}
	if cur, err := strconv.Atoi(f.Value.String()); err == nil && cur < n {
		_ = f.Value.Set(strconv.Itoa(n)) // an int flag takes an int
	}
}
