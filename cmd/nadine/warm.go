package main

import (
	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/sqlite"
)

// memoryWarmer returns the robot runtime's Warm for the store: SQLite
// loads a recognized person's memory vectors into its cache ahead of their
// first search; PostgreSQL searches in the server and has nothing to warm.
func memoryWarmer(st nadine.Store) func(userID string) {
	if s, ok := st.(*sqlite.Store); ok {
		return s.WarmMemories
	}
	return nil
}
