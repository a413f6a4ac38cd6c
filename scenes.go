package nadine

import "context"

// SceneRetriever recalls a user's memorable scenes for the graph engine's
// memory agent (the visual package implements it over a SceneStore).
type SceneRetriever interface {
	// Best returns the user's scene that best matches the question and
	// its score; a nil scene when none is similar enough.
	Best(ctx context.Context, userID, question string) (*Scene, float64, error)
	// Image reads Scene.ImagePath: ENOTFOUND when it is gone, EINVALID when it
	// is no image or larger than MaxImageBytes.
	Image(ctx context.Context, path string) (Image, error)
}
