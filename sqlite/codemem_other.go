//go:build !unix

package sqlite

// newCodeMemory returns n bytes for the codes of a quantized set: an
// ordinary slice where memory cannot be mapped (see codemem_unix.go).
func newCodeMemory(n int) *codeMemory { return &codeMemory{b: make([]byte, n)} }
