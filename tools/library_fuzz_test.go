package tools_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/tools"
)

// FuzzParseLibrary reads song lists (library.json) as people write them:
// nothing panics, a bad entry is an EINVALID error, and every song loaded
// has a title, a supported language and a path.
func FuzzParseLibrary(f *testing.F) {
	for _, s := range []string{
		`[{"title": "Imagine", "language": "en", "file": "en/imagine.mp3"}, {"title": "La Vie en rose", "language": "fr", "file": "fr/la_vie_en_rose.mp3"}]`,
		`[{"title": "Freude", "language": "German", "file": "/srv/songs/freude.ogg"}]`,
		`[{"title": "月亮代表我的心", "language": "zh-CN", "file": "zh/moon.mp3"}]`,
		`[{"title": "", "language": "en", "file": "x.mp3"}]`,
		`[{"title": "X", "language": "klingon", "file": "x.mp3"}]`,
		`{"title": "not a list"}`,
		`[]`,
		``,
	} {
		f.Add([]byte(s))
	}
	dir := filepath.Join("songs", "library")
	f.Fuzz(func(t *testing.T, data []byte) {
		songs, err := tools.ParseLibrary(dir, data)
		if err != nil {
			if nadine.ErrorCode(err) != nadine.EINVALID {
				t.Fatalf("error without EINVALID: %v", err)
			}
			return
		}
		for _, s := range songs {
			if strings.TrimSpace(s.Title) == "" || !s.Language.Valid() || s.Path == "" {
				t.Fatalf("song %+v from %q", s, data)
			}
		}
	})
}
