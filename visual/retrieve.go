package visual

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
)

// Defaults of a Retriever.
const (
	DefaultAlpha     = 0.7
	DefaultThreshold = 0.6
)

// NoteDescriptionOnly marks a search done without a CLIP text encoder.
const NoteDescriptionOnly = "no CLIP text encoder configured: description similarity only"

// Retriever recalls a user's most relevant memorable scene. Its zero value,
// with Store and at least one embedder set, is ready to use.
type Retriever struct {
	Store nadine.SceneStore
	// TextToImage embeds the question into CLIP's space, to compare with
	// the scenes' image vectors (optional; see the package doc).
	TextToImage nadine.Embedder
	// Description embeds the question to compare with the scene
	// descriptions; it must be the embedder the scenes were indexed with.
	Description nadine.Embedder
	// Alpha weighs image similarity against description similarity;
	// DefaultAlpha when zero or outside (0, 1].
	Alpha float64
	// Threshold is the lowest score of a recalled scene; DefaultThreshold
	// when zero. A negative threshold accepts any scene.
	Threshold float64
}

var _ nadine.SceneRetriever = (*Retriever)(nil)

// Image reads the picture of a scene (ReadImage).
func (r *Retriever) Image(_ context.Context, path string) (nadine.Image, error) {
	return ReadImage(path)
}

func (r *Retriever) alpha() float64 {
	if r.Alpha <= 0 || r.Alpha > 1 {
		return DefaultAlpha
	}
	return r.Alpha
}

func (r *Retriever) threshold() float64 {
	if r.Threshold == 0 {
		return DefaultThreshold
	}
	return r.Threshold
}

// scored is a scene with its score.
type scored struct {
	scene *nadine.Scene
	score float64
}

// Best scores a scene with one similarity alone when the other is missing, and
// goes on by description when the CLIP text encoder fails (noted in the trace).
func (r *Retriever) Best(ctx context.Context, userID, question string) (*nadine.Scene, float64, error) {
	if strings.TrimSpace(question) == "" {
		return nil, 0, nadine.Errorf(nadine.EINVALID, "visual: empty question")
	}
	if r.Store == nil {
		return nil, 0, nadine.Errorf(nadine.EINVALID, "visual: no scene store")
	}
	if r.TextToImage == nil && r.Description == nil {
		return nil, 0, nadine.Errorf(nadine.EINVALID, "visual: no embedder configured")
	}
	if userID == "" || userID == nadine.UnknownUser {
		return nil, 0, nil
	}
	tr := nadine.TraceFrom(ctx)
	start := time.Now()
	rec := nadine.Retrieval{Kind: "visual", Query: question, Start: start, Step: nadine.StepOf(ctx).ID}
	var notes []string
	defer func() {
		rec.Duration = time.Since(start)
		rec.Note = strings.Join(notes, "; ")
		tr.AddRetrieval(rec)
	}()

	scenes, err := r.Store.Scenes(ctx, userID)
	if err != nil {
		notes = append(notes, "error: "+err.Error())
		return nil, 0, fmt.Errorf("visual: scenes of %s: %w", userID, err)
	}
	if len(scenes) == 0 {
		notes = append(notes, "no scenes")
		return nil, 0, nil
	}

	var (
		qi, qd     []float32
		errI, errD error
		wg         sync.WaitGroup
	)
	if r.TextToImage != nil {
		wg.Go(func() { qi, errI = nadine.EmbedOne(ctx, r.TextToImage, question) })
	} else {
		notes = append(notes, NoteDescriptionOnly)
	}
	if r.Description != nil {
		wg.Go(func() { qd, errD = nadine.EmbedOne(ctx, r.Description, question) })
	}
	wg.Wait()
	if errI != nil {
		tr.Fail("visual:text_to_image", errI)
		qi = nil
		if r.Description == nil {
			notes = append(notes, "error: "+errI.Error())
			return nil, 0, fmt.Errorf("visual: embed question: %w", errI)
		}
		notes = append(notes, "CLIP text encoder failed: description similarity only")
	}
	if errD != nil {
		tr.Fail("visual:description", errD)
		qd = nil
		if qi == nil {
			notes = append(notes, "error: "+errD.Error())
			return nil, 0, fmt.Errorf("visual: embed question: %w", errD)
		}
		notes = append(notes, "description embedder failed: image similarity only")
	}

	descName := ""
	if r.Description != nil {
		descName = r.Description.Name()
	}
	alpha := r.alpha()
	var results []scored
	for i := range scenes {
		s := &scenes[i]
		si, okI := cosine(qi, s.ImageEmbedding)
		sd, okD := 0.0, false
		if s.DescriptionEmbedder == descName {
			sd, okD = cosine(qd, s.DescriptionEmbedding)
		}
		var score float64
		switch {
		case okI && okD:
			score = alpha*si + (1-alpha)*sd
		case okI:
			score = si
		case okD:
			score = sd
		default:
			continue
		}
		results = append(results, scored{s, score})
	}
	sort.SliceStable(results, func(i, j int) bool {
		a, b := results[i], results[j]
		if a.score != b.score {
			return a.score > b.score
		}
		if !a.scene.Time.Equal(b.scene.Time) {
			return a.scene.Time.After(b.scene.Time)
		}
		return a.scene.SceneID < b.scene.SceneID
	})
	for _, x := range results[:min(3, len(results))] {
		text := x.scene.Description
		if text == "" {
			text = x.scene.ImagePath
		}
		rec.Results = append(rec.Results, nadine.RetrievedItem{ID: x.scene.SceneID, Text: nadine.Shorten(text, 200), Score: x.score})
	}
	if len(results) == 0 {
		notes = append(notes, "no scene has a comparable vector")
		return nil, 0, nil
	}
	best := results[0]
	if th := r.threshold(); best.score < th {
		notes = append(notes, fmt.Sprintf("best score %.3f below threshold %.2f", best.score, th))
		return nil, best.score, nil
	}
	s := *best.scene
	return &s, best.score, nil
}

// cosine returns the cosine similarity of a and b, and false when they are
// not comparable (missing, different lengths, or zero).
func cosine(a, b []float32) (float64, bool) {
	if len(a) == 0 || len(a) != len(b) {
		return 0, false
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0, false
	}
	return dot / math.Sqrt(na*nb), true
}
