package robot

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
)

// Capturer asks perception to save the current view. *mqtt.Bus implements
// it (nadine/perception/capture_current_view).
type Capturer interface {
	RequestCapture(ctx context.Context, path string) error
}

// Camera asks perception over the bus to write the view to a file, reads it
// and deletes it, so the picture is held in memory only.
type Camera struct {
	Bus     Capturer
	Dir     string
	Timeout time.Duration // default 5 s
	Poll    time.Duration // default 50 ms
}

var _ nadine.Camera = (*Camera)(nil)

// Capture returns EUNAVAILABLE when no image arrives in time, EINVALID when
// the file is not an image or exceeds nadine.MaxImageBytes.
func (c *Camera) Capture(ctx context.Context) (nadine.Image, error) {
	timeout, poll := c.Timeout, c.Poll
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	if poll <= 0 {
		poll = 50 * time.Millisecond
	}
	if err := os.MkdirAll(c.Dir, 0o750); err != nil {
		return nadine.Image{}, fmt.Errorf("robot: camera: %w", err)
	}
	sweep(c.Dir)
	path := filepath.Join(c.Dir, "view_"+time.Now().UTC().Format("20060102_150405.000000000")+".jpg")
	// Whatever happens, the view does not stay on disk (perception may
	// still write it after a timeout: it is removed then too).
	defer os.Remove(path)
	if err := c.Bus.RequestCapture(ctx, path); err != nil {
		return nadine.Image{}, fmt.Errorf("robot: camera: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	t := time.NewTicker(poll)
	defer t.Stop()
	var last int64 = -1
	for {
		// The file is complete when it exists, is not empty, and its size
		// did not change since the last look.
		if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
			if fi.Size() == last {
				return readImage(path)
			}
			last = fi.Size()
		}
		select {
		case <-ctx.Done():
			return nadine.Image{}, nadine.Errorf(nadine.EUNAVAILABLE, "robot: camera: no image from perception within %v", timeout)
		case <-t.C:
		}
	}
}

// readImage reads the picture perception wrote.
func readImage(path string) (nadine.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nadine.Image{}, fmt.Errorf("robot: camera: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, nadine.MaxImageBytes+1))
	if err != nil {
		return nadine.Image{}, fmt.Errorf("robot: camera: read the view: %w", err)
	}
	if len(b) > nadine.MaxImageBytes {
		return nadine.Image{}, nadine.Errorf(nadine.EINVALID, "robot: camera: the view is larger than %d bytes", nadine.MaxImageBytes)
	}
	typ := http.DetectContentType(b)
	if i := strings.IndexByte(typ, ';'); i >= 0 {
		typ = typ[:i]
	}
	if !strings.HasPrefix(typ, "image/") {
		return nadine.Image{}, nadine.Errorf(nadine.EINVALID, "robot: camera: perception wrote %s, not an image", typ)
	}
	return nadine.Image{Data: b, Type: typ}, nil
}

// sweep removes the views left in dir: written by perception after a
// Capture gave up on them, or by an earlier run.
func sweep(dir string) {
	old, _ := filepath.Glob(filepath.Join(dir, "view_*.jpg"))
	for _, p := range old {
		_ = os.Remove(p)
	}
}
