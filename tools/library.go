package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/nadine-robot/nadine"
)

// LibraryFile is the name of the song list inside a song directory.
const LibraryFile = "library.json"

// songExtensions are the audio files a scanned library picks up.
var songExtensions = map[string]bool{".mp3": true, ".wav": true, ".ogg": true}

// libraryEntry is one song in library.json.
type libraryEntry struct {
	Title    string `json:"title"`
	Language string `json:"language"`
	File     string `json:"file"`
}

// LoadSongs reads dir's library.json, else its <language>/ audio files; an
// invalid library.json entry is an EINVALID error naming it.
func LoadSongs(dir string) ([]nadine.Song, error) {
	if dir == "" {
		return nil, nil
	}
	info, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nadine.Errorf(nadine.ENOTFOUND, "songs: song directory %q does not exist", dir)
		}
		return nil, fmt.Errorf("songs: %w", err)
	}
	if !info.IsDir() {
		return nil, nadine.Errorf(nadine.EINVALID, "songs: %q is not a directory", dir)
	}
	var songs []nadine.Song
	data, err := os.ReadFile(filepath.Join(dir, LibraryFile))
	switch {
	case err == nil:
		songs, err = parseLibrary(dir, data)
	case errors.Is(err, fs.ErrNotExist):
		songs, err = scanLibrary(dir)
	default:
		err = fmt.Errorf("songs: read %s: %w", LibraryFile, err)
	}
	if err != nil {
		return nil, err
	}
	sortSongs(songs)
	return songs, nil
}

func parseLibrary(dir string, data []byte) ([]nadine.Song, error) {
	var entries []libraryEntry
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, nadine.Errorf(nadine.EINVALID, "songs: parse %s: %w", filepath.Join(dir, LibraryFile), err)
	}
	songs := make([]nadine.Song, 0, len(entries))
	for i, e := range entries {
		title := strings.TrimSpace(e.Title)
		if title == "" || strings.TrimSpace(e.File) == "" {
			return nil, nadine.Errorf(nadine.EINVALID, "songs: %s entry %d: title and file are required", LibraryFile, i)
		}
		lang, err := nadine.ParseLanguage(e.Language)
		if err != nil {
			return nil, nadine.Errorf(nadine.EINVALID, "songs: %s entry %d (%q): language: %w", LibraryFile, i, title, err)
		}
		path := filepath.FromSlash(e.File)
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		songs = append(songs, nadine.Song{Title: title, Language: lang, Path: path})
	}
	return songs, nil
}

func scanLibrary(dir string) ([]nadine.Song, error) {
	dirs, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("songs: scan %s: %w", dir, err)
	}
	var songs []nadine.Song
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		lang, err := nadine.ParseLanguage(d.Name())
		if err != nil {
			continue // not a language directory
		}
		files, err := os.ReadDir(filepath.Join(dir, d.Name()))
		if err != nil {
			return nil, fmt.Errorf("songs: scan %s: %w", d.Name(), err)
		}
		for _, f := range files {
			ext := strings.ToLower(filepath.Ext(f.Name()))
			if f.IsDir() || !songExtensions[ext] {
				continue
			}
			title := titleFromFile(f.Name())
			if title == "" {
				continue
			}
			songs = append(songs, nadine.Song{Title: title, Language: lang, Path: filepath.Join(dir, d.Name(), f.Name())})
		}
	}
	return songs, nil
}

// trackNumberRE matches a leading track number followed by a separator
// ("01_", "02-", "3. ", "04 - "); "99 Luftballons" keeps its number.
var trackNumberRE = regexp.MustCompile(`^\d{1,3}(?:\s*[._\-]\s*)`)

// titleFromFile makes a title from an audio file's name:
// "01_frere_jacques.mp3" gives "frere jacques".
func titleFromFile(name string) string {
	t := strings.TrimSuffix(name, filepath.Ext(name))
	if s := trackNumberRE.ReplaceAllString(t, ""); s != "" {
		t = s
	}
	t = strings.NewReplacer("_", " ", "-", " ").Replace(t)
	return strings.Join(strings.Fields(t), " ")
}

func sortSongs(songs []nadine.Song) {
	rank := map[nadine.Language]int{}
	for i, l := range nadine.Languages() {
		rank[l] = i
	}
	sort.SliceStable(songs, func(i, j int) bool {
		if songs[i].Language != songs[j].Language {
			return rank[songs[i].Language] < rank[songs[j].Language]
		}
		return fold(songs[i].Title) < fold(songs[j].Title)
	})
}

// fold prepares a title for matching: no diacritics, lowercase, letters
// and digits separated by single spaces.
func fold(s string) string {
	var b strings.Builder
	space := true
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			b.WriteRune(unicode.ToLower(r))
			space = false
		case !space:
			b.WriteByte(' ')
			space = true
		}
	}
	return strings.TrimSpace(b.String())
}

// ratio is python-Levenshtein's ratio on runes: 2·LCS / (len(a)+len(b)),
// where LCS is the longest common subsequence (InDel distance).
func ratio(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	if len(ra)+len(rb) == 0 {
		return 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			switch {
			case ra[i-1] == rb[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return 2 * float64(prev[len(rb)]) / float64(len(ra)+len(rb))
}

// matchSong finds the song query names: exact, contained as whole words, or
// a ratio of at least 0.75; ties prefer lang.
func matchSong(songs []nadine.Song, query string, lang nadine.Language) (nadine.Song, bool) {
	q := fold(query)
	if q == "" {
		return nadine.Song{}, false
	}
	best, bestScore := -1, 0.0
	for i, s := range songs {
		t := fold(s.Title)
		if t == "" {
			continue
		}
		var score float64
		switch {
		case t == q:
			score = 3
		case len([]rune(t)) >= 3 && strings.Contains(" "+q+" ", " "+t+" "):
			score = 2.5
		case len([]rune(q)) >= 3 && strings.Contains(" "+t+" ", " "+q+" "):
			score = 2
		default:
			if r := ratio(q, t); r >= 0.75 {
				score = r
			}
		}
		if score == 0 {
			continue
		}
		if s.Language == lang {
			score += 0.01
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return nadine.Song{}, false
	}
	return songs[best], true
}
