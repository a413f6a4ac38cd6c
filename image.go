package nadine

import "encoding/base64"

// MaxImageBytes is the largest image Nadine sends a vision model.
const MaxImageBytes = 4 << 20

// Image is a picture in memory: what the camera saw, a stored scene.
type Image struct {
	Data []byte // the encoded picture (JPEG, PNG, ...)
	Type string // its media type, "image/jpeg"
}

// DataURL returns the image as a data URL ("data:image/jpeg;base64,..."),
// as vision models take it.
func (i Image) DataURL() string {
	return "data:" + i.Type + ";base64," + base64.StdEncoding.EncodeToString(i.Data)
}
