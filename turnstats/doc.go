// Package turnstats keeps what a day of turns comes to, without a word of
// what was said or who said it: one Turn record per heard transcript or
// operator turn (its outcome, language, engine and timings), one Session
// record per end of interaction, and the Summary of a period that the
// monitor's Today view and `nadine report` show, with the same charts
// (inline SVG, no script, no external resource). It does no I/O: the
// records are kept by the sqlite package (the stats file) and fed by the
// robots' runtimes through cmd/nadine.
package turnstats
