package visual

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nadine-robot/nadine"
)

// SceneFolders erases a person's scene folder; without it a forgotten
// person's scenes would come back when the folders are indexed at the next start.
type SceneFolders struct {
	Root string
}

var _ nadine.UserEraser = SceneFolders{}

// EraseUser removes the user's scene folder; a user without one, or with an
// id that cannot name a folder, has nothing to remove.
func (f SceneFolders) EraseUser(_ context.Context, userID string) error {
	if f.Root == "" || validUserID(userID) != nil {
		return nil
	}
	if err := os.RemoveAll(filepath.Join(f.Root, userID)); err != nil {
		return fmt.Errorf("visual: erase the scenes of %s: %w", userID, err)
	}
	return nil
}
