// Package turnstats sums up a day of turns without a word of what was said or
// who said it: Turn and Session records and the Summary that the monitor's
// Today view and `nadine report` chart. No I/O: sqlite keeps the records.
package turnstats
