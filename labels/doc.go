// Package labels reads what models write where a program expects a label, a
// number or a piece of text, so a usable answer is never thrown away over its
// spelling. Names match by Key (case, spaces, underscores, hyphens aside),
// then by synonym tables; docs/model-answers.md lists them. Pure, no I/O.
package labels
