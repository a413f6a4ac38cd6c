// Package storetest is the contract suite of nadine.Store, run by every
// implementation (sqlite, postgres) from its own tests through Run, with Shared
// for two stores on one database. It tests only what the interface promises;
// what it leaves open is tested by each implementation.
// See docs/architecture.md#storetest.
package storetest
