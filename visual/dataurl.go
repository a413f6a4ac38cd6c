package visual

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/nadine-robot/nadine"
)

// MaxImageBytes is the largest image DataURL encodes.
const MaxImageBytes = nadine.MaxImageBytes

// DataURL reads an image file into a data URL ("data:image/jpeg;base64,...")
// for a vision model (see ReadImage).
func DataURL(path string) (string, error) {
	img, err := ReadImage(path)
	if err != nil {
		return "", err
	}
	return img.DataURL(), nil
}

// ReadImage sniffs the media type from the content, else the extension; over
// MaxImageBytes or not an image is EINVALID.
func ReadImage(path string) (nadine.Image, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nadine.Image{}, nadine.Errorf(nadine.ENOTFOUND, "visual: image %s does not exist", path)
	}
	if err != nil {
		return nadine.Image{}, fmt.Errorf("visual: open image: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxImageBytes+1))
	if err != nil {
		return nadine.Image{}, fmt.Errorf("visual: read image %s: %w", path, err)
	}
	if len(b) > MaxImageBytes {
		return nadine.Image{}, nadine.Errorf(nadine.EINVALID, "visual: image %s is larger than %d bytes", path, MaxImageBytes)
	}
	typ := http.DetectContentType(b)
	if !strings.HasPrefix(typ, "image/") {
		typ, _, _ = mime.ParseMediaType(mime.TypeByExtension(strings.ToLower(filepath.Ext(path))))
		if !strings.HasPrefix(typ, "image/") {
			return nadine.Image{}, nadine.Errorf(nadine.EINVALID, "visual: %s is not an image", path)
		}
	}
	if i := strings.IndexByte(typ, ';'); i >= 0 {
		typ = typ[:i]
	}
	return nadine.Image{Data: b, Type: typ}, nil
}
