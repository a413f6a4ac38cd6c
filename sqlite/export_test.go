package sqlite

import (
	"testing"

	"github.com/nadine-robot/nadine/internal/migrations"
)

// CheckIndex fails t unless the packed vector index of s holds exactly the
// vectors of its memories table (for the tests of package sqlite_test).
func CheckIndex(t *testing.T, s *Store) {
	t.Helper()
	checkIndex(t, s.w)
}

// SchemaVersion is the version of the last embedded migration: the schema
// version of a database Open has migrated.
func SchemaVersion() int {
	ms, err := migrations.Load(migrationFS, "migrations")
	if err != nil || len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].Version
}

// CacheUsed returns the bytes of the vector sets s keeps in memory.
func CacheUsed(s *Store) int64 { return s.cache.used() }
