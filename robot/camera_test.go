package robot_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/robot"
)

// perception writes the view where it is asked to (or does not).
type perception struct {
	image []byte
	late  bool // write nothing now
	asked []string
}

func (p *perception) RequestCapture(_ context.Context, path string) error {
	p.asked = append(p.asked, path)
	if p.late {
		return nil
	}
	return os.WriteFile(path, p.image, 0o600)
}

// TestCameraKeepsNothingOnDisk: the view perception writes is read into
// memory and deleted; a view written after the camera gave up is swept by
// the next capture, so what the camera saw of a person stays on no disk.
func TestCameraKeepsNothingOnDisk(t *testing.T) {
	jpeg, err := os.ReadFile("../agents/testdata/camera.jpg")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := &perception{image: jpeg}
	cam := &robot.Camera{Bus: p, Dir: dir, Timeout: 300 * time.Millisecond, Poll: 5 * time.Millisecond}
	img, err := cam.Capture(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if img.Type != "image/jpeg" || len(img.Data) != len(jpeg) {
		t.Errorf("image %s, %d bytes; want the JPEG's %d", img.Type, len(img.Data), len(jpeg))
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Errorf("views left on disk: %v", left)
	}

	p.late = true
	if _, err := cam.Capture(context.Background()); nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
		t.Fatalf("no view: %v, want EUNAVAILABLE", err)
	}
	// Perception writes it after all, late.
	if err := os.WriteFile(p.asked[len(p.asked)-1], jpeg, 0o600); err != nil {
		t.Fatal(err)
	}
	p.late = false
	if _, err := cam.Capture(context.Background()); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Errorf("views left on disk after a late write: %v", left)
	}

	p.image = []byte("not a picture at all")
	if _, err := cam.Capture(context.Background()); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("a text file: %v, want EINVALID", err)
	}
}
