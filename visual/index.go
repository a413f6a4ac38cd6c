package visual

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
)

// Folder and file names of perception's scene store.
const (
	scenesDir     = "memorable_scenes"
	imagesDir     = "images"
	embeddingsDir = "embeddings"
	metadataDir   = "metadata"
	metaSuffix    = "_metadata.json"
	embSuffix     = "_embedding.npy"
)

// DefaultBatchSize is how many descriptions are embedded per call.
const DefaultBatchSize = 32

// Indexer reads perception's scene folders into a SceneStore. Its zero
// value, with Store set, is ready to use.
type Indexer struct {
	Store nadine.SceneStore
	// Description embeds scene descriptions (none when nil); an unchanged
	// description already embedded by it is not embedded again.
	Description nadine.Embedder
	// Logger receives a warning per skipped file (slog.DiscardHandler when
	// nil).
	Logger *slog.Logger
	// Location interprets zone-less timestamps (Python's isoformat());
	// time.Local when nil, right when perception runs on this machine.
	Location *time.Location
	// BatchSize is how many descriptions go in one Embed call
	// (DefaultBatchSize when zero or less).
	BatchSize int
}

// Index discards warnings; see Indexer.Index.
func Index(ctx context.Context, store nadine.SceneStore, descEmb nadine.Embedder, root, userID string) (int, error) {
	return (&Indexer{Store: store, Description: descEmb}).Index(ctx, root, userID)
}

// IndexAll uses a default Indexer; see Indexer.IndexAll.
func IndexAll(ctx context.Context, store nadine.SceneStore, descEmb nadine.Embedder, root string) (int, error) {
	return (&Indexer{Store: store, Description: descEmb}).IndexAll(ctx, root)
}

func (ix *Indexer) logger() *slog.Logger {
	if ix.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return ix.Logger
}

// validUserID rejects ids that would escape the root folder.
func validUserID(id string) error {
	if id == "" || id == "." || id == ".." || strings.ContainsAny(id, "/\\\x00") {
		return nadine.Errorf(nadine.EINVALID, "visual: invalid user id %q", id)
	}
	return nil
}

// sceneMeta is perception's metadata file.
type sceneMeta struct {
	SceneID      string             `json:"scene_id"`
	Timestamp    json.RawMessage    `json:"timestamp"`
	ImagePath    string             `json:"image_path"`
	Memorability float64            `json:"memorability"`
	EmotionProbs map[string]float64 `json:"emotion_probs"`
	Description  string             `json:"description"`
}

// Index skips a malformed metadata file with a warning and keeps a scene
// without its unreadable vector; only store or embedder errors abort.
func (ix *Indexer) Index(ctx context.Context, root, userID string) (int, error) {
	if ix.Store == nil {
		return 0, nadine.Errorf(nadine.EINVALID, "visual: index: no scene store")
	}
	if err := validUserID(userID); err != nil {
		return 0, err
	}
	log := ix.logger().With("user_id", nadine.PersonID(userID))
	base := filepath.Join(root, userID, scenesDir)
	entries, err := os.ReadDir(filepath.Join(base, metadataDir))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("visual: index %s: %w", userID, err)
	}
	var scenes []nadine.Scene
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), metaSuffix) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return 0, fmt.Errorf("visual: index %s: %w", userID, err)
		}
		s, err := ix.readScene(base, userID, e.Name(), log)
		if err != nil {
			log.Warn("visual: skipping scene", "file", filepath.Join(base, metadataDir, e.Name()), "error", err)
			continue
		}
		scenes = append(scenes, s)
	}
	if len(scenes) == 0 {
		return 0, nil
	}
	if err := ix.embedDescriptions(ctx, userID, scenes); err != nil {
		return 0, err
	}
	if err := ix.Store.UpsertScenes(ctx, scenes); err != nil {
		return 0, fmt.Errorf("visual: index %s: store scenes: %w", userID, err)
	}
	log.Debug("visual: indexed scenes", "count", len(scenes))
	return len(scenes), nil
}

// IndexAll goes on after a user's failure and returns the failures joined.
func (ix *Indexer) IndexAll(ctx context.Context, root string) (int, error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nadine.Errorf(nadine.ENOTFOUND, "visual: scene root %s does not exist", root)
	}
	if err != nil {
		return 0, fmt.Errorf("visual: index all: %w", err)
	}
	total := 0
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") || name == nadine.UnknownUser || validUserID(name) != nil {
			continue
		}
		n, err := ix.Index(ctx, root, name)
		total += n
		if err != nil {
			if ctx.Err() != nil {
				return total, err
			}
			errs = append(errs, err)
		}
	}
	return total, errors.Join(errs...)
}

// readScene reads one metadata file and the scene's embedding.
func (ix *Indexer) readScene(base, userID, file string, log *slog.Logger) (nadine.Scene, error) {
	path := filepath.Join(base, metadataDir, file)
	b, err := os.ReadFile(path)
	if err != nil {
		return nadine.Scene{}, err
	}
	var m sceneMeta
	if err := json.Unmarshal(b, &m); err != nil {
		return nadine.Scene{}, fmt.Errorf("malformed metadata: %w", err)
	}
	id := strings.TrimSuffix(file, metaSuffix)
	if m.SceneID != "" {
		id = m.SceneID
	}
	if id == "" || id == "." || id == ".." || strings.ContainsAny(id, "/\\\x00") {
		return nadine.Scene{}, fmt.Errorf("invalid scene_id %q", id)
	}
	t, err := ix.sceneTime(m.Timestamp, id)
	if err != nil {
		return nadine.Scene{}, err
	}
	s := nadine.Scene{
		UserID:       userID,
		SceneID:      id,
		Time:         t,
		ImagePath:    resolveImage(base, id, m.ImagePath),
		Memorability: m.Memorability,
		EmotionProbs: m.EmotionProbs,
		Description:  strings.TrimSpace(m.Description),
	}
	v, err := readEmbedding(filepath.Join(base, embeddingsDir, id+embSuffix))
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		log.Warn("visual: scene without image vector", "scene_id", id, "error", err)
	default:
		s.ImageEmbedding = v
	}
	return s, nil
}

// readEmbedding reads a CLIP vector of shape (D,) or (1, D) (any shape with
// at most one dimension longer than 1).
func readEmbedding(path string) ([]float32, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	v, shape, err := ReadNPY(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	long := 0
	for _, d := range shape {
		if d > 1 {
			long++
		}
	}
	if long > 1 || len(v) == 0 {
		return nil, fmt.Errorf("%s: shape %v is not one vector", path, shape)
	}
	return v, nil
}

// sceneTime parses a timestamp (an ISO 8601 string, a "YYYYMMDD_HHMMSS"
// string or Unix seconds), or takes the time from the scene id.
func (ix *Indexer) sceneTime(raw json.RawMessage, id string) (time.Time, error) {
	loc := ix.Location
	if loc == nil {
		loc = time.Local
	}
	if len(raw) > 0 && string(raw) != "null" {
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			s = strings.TrimSpace(s)
			layouts := [...]string{
				time.RFC3339Nano,
				"2006-01-02T15:04:05.999999999",
				"2006-01-02 15:04:05.999999999Z07:00",
				"2006-01-02 15:04:05.999999999",
				"20060102_150405",
			}
			for _, l := range layouts {
				if t, err := time.ParseInLocation(l, s, loc); err == nil {
					return t, nil
				}
			}
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				return unixTime(f), nil
			}
			return time.Time{}, fmt.Errorf("unrecognized timestamp %q", s)
		}
		var f float64
		if err := json.Unmarshal(raw, &f); err != nil {
			return time.Time{}, fmt.Errorf("unrecognized timestamp %s", raw)
		}
		return unixTime(f), nil
	}
	if i := strings.LastIndex(id, "_"); i >= 8 {
		if t, err := time.ParseInLocation("20060102_150405", id[i-8:], loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errors.New("no timestamp and no time in the scene id")
}

func unixTime(f float64) time.Time {
	sec := int64(f)
	return time.Unix(sec, int64((f-float64(sec))*1e9)).UTC()
}

// resolveImage falls back to the images folder's file of the same name, since
// the perception host may use another root, then to images/<scene_id>.jpg.
func resolveImage(base, id, p string) string {
	local := filepath.Join(base, imagesDir, id+".jpg")
	if p != "" {
		cand := p
		if !filepath.IsAbs(cand) {
			cand = filepath.Join(base, p)
		}
		if fileExists(cand) {
			return absPath(cand)
		}
		name := filepath.Base(strings.ReplaceAll(p, "\\", "/"))
		if alt := filepath.Join(base, imagesDir, name); fileExists(alt) {
			return absPath(alt)
		}
	}
	return absPath(local)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// embedDescriptions fills the description vectors, reusing the stored ones
// whose description and embedder are unchanged.
func (ix *Indexer) embedDescriptions(ctx context.Context, userID string, scenes []nadine.Scene) error {
	if ix.Description == nil {
		return nil
	}
	name := ix.Description.Name()
	old, err := ix.Store.Scenes(ctx, userID)
	if err != nil {
		return fmt.Errorf("visual: index %s: read stored scenes: %w", userID, err)
	}
	stored := make(map[string]nadine.Scene, len(old))
	for _, s := range old {
		stored[s.SceneID] = s
	}
	var todo []int
	for i := range scenes {
		s := &scenes[i]
		if s.Description == "" {
			continue
		}
		if o, ok := stored[s.SceneID]; ok && o.Description == s.Description && o.DescriptionEmbedder == name && len(o.DescriptionEmbedding) > 0 {
			s.DescriptionEmbedding, s.DescriptionEmbedder = o.DescriptionEmbedding, name
			continue
		}
		todo = append(todo, i)
	}
	batch := ix.BatchSize
	if batch <= 0 {
		batch = DefaultBatchSize
	}
	for start := 0; start < len(todo); start += batch {
		idx := todo[start:min(start+batch, len(todo))]
		texts := make([]string, len(idx))
		for j, i := range idx {
			texts[j] = scenes[i].Description
		}
		vs, err := ix.Description.Embed(ctx, texts)
		if err != nil {
			return fmt.Errorf("visual: index %s: embed descriptions: %w", userID, err)
		}
		if len(vs) != len(texts) {
			return nadine.Errorf(nadine.EBADOUTPUT, "visual: index %s: embedder %s returned %d vectors for %d texts", userID, name, len(vs), len(texts))
		}
		for j, i := range idx {
			scenes[i].DescriptionEmbedding, scenes[i].DescriptionEmbedder = vs[j], name
		}
	}
	return nil
}
