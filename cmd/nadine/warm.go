package main

import (
	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/sqlite"
)

// memoryWarmer loads a recognized person's vectors into SQLite's cache before
// their first search; PostgreSQL searches in the server: nothing to warm.
func memoryWarmer(st nadine.Store) func(userID string) {
	if s, ok := st.(*sqlite.Store); ok {
		return s.WarmMemories
	}
	return nil
}
