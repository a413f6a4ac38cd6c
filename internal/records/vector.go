package records

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"
)

// EncodeVector returns v as float32 little-endian bytes, nil for an empty
// v: the stores' vector column layout.
func EncodeVector(v []float32) []byte {
	if len(v) == 0 {
		return nil
	}
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// DecodeVector reuses dst when large enough.
func DecodeVector(b []byte, dst []float32) ([]float32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("vector blob of %d bytes is not a multiple of 4", len(b))
	}
	n := len(b) / 4
	if cap(dst) < n {
		dst = make([]float32, n)
	}
	dst = dst[:n]
	if n > 0 && HostLittleEndian() {
		// The stored layout is the memory layout: one bulk copy, which
		// matters for the blocks of a vector index (megabytes per user).
		copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), 4*n), b)
		return dst, nil
	}
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b))
		b = b[4:]
	}
	return dst, nil
}

// HostLittleEndian says whether vectors can be viewed in place, without decoding.
func HostLittleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}
