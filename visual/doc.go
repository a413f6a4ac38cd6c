// Package visual is Nadine's visual memory: the memorable scenes perception
// stores for each user, indexed from its folders into a SceneStore and recalled
// by a question ("what was I wearing?") through CLIP image and description
// similarity. See docs/architecture.md#visual.
package visual
