// Package storetest is the contract test suite of nadine.Store. Every
// implementation (sqlite, postgres) runs the same suite from its own tests:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) nadine.Store {
//			s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "nadine.db"), sqlite.Options{})
//			if err != nil {
//				t.Fatal(err)
//			}
//			t.Cleanup(func() { s.Close() })
//			return s
//		})
//	}
//
// The suite tests only what the nadine.Store documentation and the memory
// issue promise, so that every implementation can pass it:
//
//   - an empty user id is an EINVALID error for every personal method;
//   - text with invalid UTF-8 is accepted and read back as given or repaired
//     (strings.ToValidUTF8 with U+FFFD), and megabyte texts are fine;
//   - a memory's metadata keeps the keys it was given and carries "date"
//     (2006-01-02), "time" (15:04:05) and "timestamp" (Unix seconds) of
//     its Time and its "conversation_id";
//   - ForgetUser erases the checkpoints whose key starts with "<userID>/"
//     and no other;
//   - times are compared at microsecond precision (the suite uses whole
//     seconds), with time.Time.Equal;
//   - UpdateProfile's concurrent callers (eight goroutines, three updates
//     each) all find their change in the final profile.
//
// Shared checks two stores open on one database, as two processes of a
// fleet have them (no lost profile update across them); each
// implementation calls it from its own tests.
//
// Behaviour the interface leaves open (the order of Scenes, whether a user
// known only by name has a Profile, appending to an ended conversation) is
// not tested here but in each implementation's own tests.
package storetest
