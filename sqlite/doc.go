// Package sqlite implements nadine.Store on an embedded SQLite file (pure
// Go): WAL with synchronous=FULL, one writer, per-user packed and quantized
// vectors, every personal statement filtered by user id
// (docs/architecture.md, sqlite).
package sqlite
