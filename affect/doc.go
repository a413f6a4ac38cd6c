// Package affect is Nadine's emotion and mood model after ALMA (Gebhard
// 2005): a fixed personality gives a baseline mood, appraisals set a
// short-lived emotion that pulls the mood, and both decay with time and turns.
// Everything is a pure function of a JSON-encodable State and the time passed
// in (docs/architecture.md#affect).
package affect
