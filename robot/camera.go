package robot

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/nadine-robot/nadine"
)

// Capturer asks perception to save the current view. *mqtt.Bus implements
// it (nadine/perception/capture_current_view).
type Capturer interface {
	RequestCapture(ctx context.Context, path string) error
}

// Camera implements nadine.Camera over the bus: it asks perception to write
// the current view to a new file in Dir and waits for the file to appear.
type Camera struct {
	Bus     Capturer
	Dir     string
	Timeout time.Duration // default 5 s
	Poll    time.Duration // default 50 ms
}

var _ nadine.Camera = (*Camera)(nil)

// Capture implements nadine.Camera. It returns an EUNAVAILABLE error when no
// image arrives in time.
func (c *Camera) Capture(ctx context.Context) (string, error) {
	timeout, poll := c.Timeout, c.Poll
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	if poll <= 0 {
		poll = 50 * time.Millisecond
	}
	if err := os.MkdirAll(c.Dir, 0o750); err != nil {
		return "", fmt.Errorf("robot: camera: %w", err)
	}
	path := filepath.Join(c.Dir, "view_"+time.Now().UTC().Format("20060102_150405.000000000")+".jpg")
	if err := c.Bus.RequestCapture(ctx, path); err != nil {
		return "", fmt.Errorf("robot: camera: %w", err)
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
				return path, nil
			}
			last = fi.Size()
		}
		select {
		case <-ctx.Done():
			return "", nadine.Errorf(nadine.EUNAVAILABLE, "robot: camera: no image from perception within %v", timeout)
		case <-t.C:
		}
	}
}
