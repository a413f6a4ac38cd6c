//go:build unix

package sqlite

import (
	"runtime"
	"syscall"
)

// newCodeMemory returns n bytes for the codes of a quantized set, mapped
// outside the Go heap: a person's codes (25 MB for 100,000 vectors of 256
// dimensions) then do not count in the heap the collector lets grow to
// twice what is live, which doubled them in the process's memory. The
// mapping is released when the returned value is unreachable; every
// block whose q8 is cut from it holds it (vecBlock.mem). The collector
// does not see the mapping, so a dropped set's codes stay mapped until its
// next cycle; every load allocates about as much on the heap (the
// driver's copies of the rows), which keeps cycles coming while sets are
// loaded and dropped. Where the map fails, the memory is an ordinary
// slice.
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
