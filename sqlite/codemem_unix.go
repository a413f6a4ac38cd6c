//go:build unix

package sqlite

import (
	"runtime"
	"syscall"
)

// newCodeMemory maps a quantized set's codes outside the Go heap, which would
// double them; a slice when mapping fails. Released when unreachable.
func newCodeMemory(n int) *codeMemory {
	if n <= 0 {
		return &codeMemory{}
	}
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return &codeMemory{b: make([]byte, n)}
	}
	m := &codeMemory{b: b}
	runtime.AddCleanup(m, func(b []byte) { _ = syscall.Munmap(b) }, b)
	return m
}
