// Package web is Nadine's monitor: an embedded page and the JSON API behind
// it (docs/api.md), loopback by default and token-guarded beyond it
// (docs/architecture.md, web).
package web
