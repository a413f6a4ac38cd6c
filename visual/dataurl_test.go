package visual_test

import (
	"bytes"
	"encoding/base64"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/visual"
)

func TestDataURL(t *testing.T) {
	dir := t.TempDir()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")
	writeFile(t, filepath.Join(dir, "a.jpg"), jpeg)
	writeFile(t, filepath.Join(dir, "b.png"), png)
	writeFile(t, filepath.Join(dir, "c.webp"), []byte("not sniffable"))
	writeFile(t, filepath.Join(dir, "d.txt"), []byte("hello"))
	writeFile(t, filepath.Join(dir, "big.jpg"), append(append([]byte{}, jpeg...), bytes.Repeat([]byte{0}, visual.MaxImageBytes)...))
	tests := []struct {
		file     string
		want     string
		wantCode string
	}{
		{"a.jpg", "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(jpeg), ""},
		{"b.png", "data:image/png;base64," + base64.StdEncoding.EncodeToString(png), ""},
		{"c.webp", "data:image/webp;base64,", ""},
		{"d.txt", "", nadine.EINVALID},
		{"big.jpg", "", nadine.EINVALID},
		{"missing.jpg", "", nadine.ENOTFOUND},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := visual.DataURL(filepath.Join(dir, tt.file))
			if tt.wantCode != "" {
				if code := nadine.ErrorCode(err); code != tt.wantCode {
					t.Fatalf("err = %v (code %q), want code %q", err, code, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(got, tt.want) {
				t.Errorf("DataURL = %.60q, want prefix %.60q", got, tt.want)
			}
		})
	}
}
