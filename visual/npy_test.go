package visual_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/visual"
)

// npyFile builds a .npy file the way numpy.save writes it: magic, version,
// header length (2 bytes in 1.0, 4 in 2.0 and 3.0), the header dict padded
// with spaces to a multiple of 64 bytes and ending in '\n', then the data.
func npyFile(major byte, header string, data []byte) []byte {
	pre := 10
	if major >= 2 {
		pre = 12
	}
	total := pre + len(header) + 1
	header += strings.Repeat(" ", (64-total%64)%64) + "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY")
	b.WriteByte(major)
	b.WriteByte(0)
	if major >= 2 {
		binary.Write(&b, binary.LittleEndian, uint32(len(header)))
	} else {
		binary.Write(&b, binary.LittleEndian, uint16(len(header)))
	}
	b.WriteString(header)
	b.Write(data)
	return b.Bytes()
}

func header(descr string, fortran bool, shape string) string {
	f := "False"
	if fortran {
		f = "True"
	}
	return fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr, f, shape)
}

func f4(vs ...float32) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, vs)
	return b.Bytes()
}

func f8(vs ...float64) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, vs)
	return b.Bytes()
}

func TestReadNPY(t *testing.T) {
	tests := []struct {
		name      string
		file      []byte
		want      []float32
		wantShape []int
	}{
		{"v1 (D,) f4", npyFile(1, header("<f4", false, "(3,)"), f4(1, -2.5, 3)), []float32{1, -2.5, 3}, []int{3}},
		{"v1 (1,D) f4", npyFile(1, header("<f4", false, "(1, 4)"), f4(0.5, 0.25, 0, -1)), []float32{0.5, 0.25, 0, -1}, []int{1, 4}},
		{"v2 (D,) f4", npyFile(2, header("<f4", false, "(2,)"), f4(7, 8)), []float32{7, 8}, []int{2}},
		{"v3 (1,D) f4", npyFile(3, header("<f4", false, "(1, 2)"), f4(7, 8)), []float32{7, 8}, []int{1, 2}},
		{"f8 converted", npyFile(1, header("<f8", false, "(3,)"), f8(0.1, 1e10, -3)), []float32{float32(0.1), 1e10, -3}, []int{3}},
		{"f2 converted", npyFile(1, header("<f2", false, "(4,)"), []byte{0x00, 0x3c, 0x00, 0xc0, 0x00, 0x38, 0x01, 0x00}), []float32{1, -2, 0.5, float32(math.Ldexp(1, -24))}, []int{4}},
		{"2D C order", npyFile(1, header("<f4", false, "(2, 2)"), f4(1, 2, 3, 4)), []float32{1, 2, 3, 4}, []int{2, 2}},
		{"fortran (1,D) is the same layout", npyFile(1, header("<f4", true, "(1, 3)"), f4(1, 2, 3)), []float32{1, 2, 3}, []int{1, 3}},
		{"scalar", npyFile(1, header("<f4", false, "()"), f4(42)), []float32{42}, []int{}},
		{"empty", npyFile(1, header("<f4", false, "(0,)"), nil), []float32{}, []int{0}},
		{"double quotes, key order, no trailing comma", npyFile(1, `{"shape": (2,), "fortran_order": False, "descr": "<f4"}`, f4(1, 2)), []float32{1, 2}, []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, shape, err := visual.ReadNPY(bytes.NewReader(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("values = %v, want %v", got, tt.want)
			}
			if !slices.Equal(shape, tt.wantShape) {
				t.Errorf("shape = %v, want %v", shape, tt.wantShape)
			}
		})
	}
}

func TestReadNPYErrors(t *testing.T) {
	good := npyFile(1, header("<f4", false, "(3,)"), f4(1, 2, 3))
	tests := []struct {
		name string
		file []byte
		want string // in the error text
	}{
		{"empty input", nil, "preamble"},
		{"bad magic", append([]byte("\x93NUMPZ"), good[6:]...), "magic"},
		{"unknown version", append(append([]byte{}, good[:6]...), append([]byte{4, 0}, good[8:]...)...), "version 4.0"},
		{"truncated header", good[:20], "read header"},
		{"truncated data", good[:len(good)-2], "read data"},
		{"big-endian", npyFile(1, header(">f4", false, "(3,)"), f4(1, 2, 3)), "big-endian"},
		{"integers", npyFile(1, header("<i4", false, "(3,)"), f4(1, 2, 3)), "unsupported dtype"},
		{"structured", npyFile(1, "{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (1,), }", f4(1)), "structured"},
		{"fortran 2D", npyFile(1, header("<f4", true, "(2, 2)"), f4(1, 2, 3, 4)), "Fortran"},
		{"negative dimension", npyFile(1, header("<f4", false, "(-1,)"), nil), "negative"},
		{"huge shape", npyFile(1, header("<f4", false, "(100000, 100000, 100000)"), nil), "too large"},
		{"claims more than it holds", npyFile(1, header("<f4", false, "(1000000,)"), f4(1)), "read data"},
		{"garbage header", npyFile(1, "{'descr': '<f4', 'fortran_order': Fals", nil), "parse header"},
		{"no shape", npyFile(1, "{'descr': '<f4', 'fortran_order': False}", nil), "shape"},
		{"huge v2 header", []byte("\x93NUMPY\x02\x00\xff\xff\xff\x7f"), "too long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := visual.ReadNPY(bytes.NewReader(tt.file))
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
			if got := nadine.ErrorCode(err); got != nadine.EINVALID {
				t.Errorf("code = %q, want %q", got, nadine.EINVALID)
			}
		})
	}
}

func FuzzReadNPY(f *testing.F) {
	f.Add(npyFile(1, header("<f4", false, "(3,)"), f4(1, 2, 3)))
	f.Add(npyFile(2, header("<f8", false, "(1, 2)"), f8(1, 2)))
	f.Add(npyFile(3, header("<f2", true, "(1,)"), []byte{0, 0x3c}))
	f.Add(npyFile(1, header("<f4", false, "()"), f4(1)))
	f.Add([]byte("\x93NUMPY\x01\x00\x05\x00{'a':"))
	f.Add([]byte("\x93NUMPY\x02\x00\x00\x00\x00\x00"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, shape, err := visual.ReadNPY(bytes.NewReader(b))
		if err != nil {
			return
		}
		n := 1
		for _, d := range shape {
			n *= d
		}
		if n != len(v) {
			t.Fatalf("shape %v but %d values", shape, len(v))
		}
	})
}
