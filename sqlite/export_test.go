package sqlite

import "testing"

// CheckIndex fails t unless the packed vector index of s holds exactly the
// vectors of its memories table (for the tests of package sqlite_test).
func CheckIndex(t *testing.T, s *Store) {
	t.Helper()
	checkIndex(t, s.w)
}
