package visual

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/nadine-robot/nadine"
)

// Limits that keep ReadNPY safe on hostile input.
const (
	maxNPYHeader   = 1 << 20 // bytes of header dict
	maxNPYElements = 1 << 28 // elements of the array
	npyReadChunk   = 1 << 16 // elements read (and allocated) at a time
)

// ReadNPY reads little-endian float .npy arrays (versions 1-3) in C order; all
// else, and malformed input, is EINVALID: it never panics.
func ReadNPY(r io.Reader) ([]float32, []int, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return nil, nil, npyErr("read preamble: %v", err)
	}
	if string(pre[:6]) != "\x93NUMPY" {
		return nil, nil, npyErr("not a .npy file (bad magic)")
	}
	major, minor := pre[6], pre[7]
	var hlen int
	switch major {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, nil, npyErr("read header length: %v", err)
		}
		hlen = int(binary.LittleEndian.Uint16(b[:]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, nil, npyErr("read header length: %v", err)
		}
		n := binary.LittleEndian.Uint32(b[:])
		if n > maxNPYHeader {
			return nil, nil, npyErr("header of %d bytes is too long", n)
		}
		hlen = int(n)
	default:
		return nil, nil, npyErr("unsupported format version %d.%d", major, minor)
	}
	hb := make([]byte, hlen)
	if _, err := io.ReadFull(r, hb); err != nil {
		return nil, nil, npyErr("read header: %v", err)
	}
	h, err := parseNPYHeader(string(hb))
	if err != nil {
		return nil, nil, err
	}
	size, err := dtypeSize(h.descr)
	if err != nil {
		return nil, nil, err
	}
	count := 1
	long := 0
	for _, d := range h.shape {
		if d < 0 {
			return nil, nil, npyErr("negative dimension in shape %v", h.shape)
		}
		if d > 1 {
			long++
		}
		if d != 0 && count > maxNPYElements/d {
			return nil, nil, npyErr("array of shape %v is too large", h.shape)
		}
		count *= d
	}
	if count > maxNPYElements {
		return nil, nil, npyErr("array of shape %v is too large", h.shape)
	}
	if h.fortran && long > 1 {
		return nil, nil, npyErr("Fortran-ordered array of shape %v is not supported", h.shape)
	}
	out := make([]float32, 0, min(count, npyReadChunk))
	buf := make([]byte, min(count, npyReadChunk)*size)
	for remaining := count; remaining > 0; {
		n := min(remaining, npyReadChunk)
		b := buf[:n*size]
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, nil, npyErr("read data (%d of %d values): %v", count-remaining, count, err)
		}
		for i := 0; i < n; i++ {
			switch size {
			case 2:
				out = append(out, halfToFloat32(binary.LittleEndian.Uint16(b[2*i:])))
			case 4:
				out = append(out, math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
			case 8:
				out = append(out, float32(math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))))
			}
		}
		remaining -= n
	}
	return out, h.shape, nil
}

func npyErr(format string, args ...any) error {
	return nadine.Errorf(nadine.EINVALID, "visual: npy: "+format, args...)
}

// dtypeSize returns the byte size of a supported dtype descriptor.
func dtypeSize(descr string) (int, error) {
	kind := descr
	if descr != "" {
		switch descr[0] {
		case '<', '=', '|':
			kind = descr[1:]
		case '>':
			return 0, npyErr("big-endian dtype %q is not supported", descr)
		}
	}
	switch kind {
	case "f2":
		return 2, nil
	case "f4":
		return 4, nil
	case "f8":
		return 8, nil
	}
	return 0, npyErr("unsupported dtype %q (want float16, float32 or float64)", descr)
}

// halfToFloat32 converts an IEEE 754 half-precision number.
func halfToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal
		f := float32(frac) / 1024 / 16384
		if sign != 0 {
			f = -f
		}
		return f
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}

// npyHeader is the parsed header dict.
type npyHeader struct {
	descr   string
	fortran bool
	shape   []int
}

// parseNPYHeader parses the Python dict literal of a .npy header, such as
// "{'descr': '<f4', 'fortran_order': False, 'shape': (512,), }".
func parseNPYHeader(s string) (npyHeader, error) {
	p := &literalParser{s: strings.TrimRight(s, " \n\x00")}
	v, err := p.value(0)
	if err == nil {
		p.space()
		if p.i != len(p.s) {
			err = fmt.Errorf("trailing text at offset %d", p.i)
		}
	}
	if err != nil {
		return npyHeader{}, npyErr("parse header %q: %v", nadine.Shorten(s, 120), err)
	}
	d, ok := v.(map[string]any)
	if !ok {
		return npyHeader{}, npyErr("header is not a dict")
	}
	var h npyHeader
	switch x := d["descr"].(type) {
	case string:
		h.descr = x
	case nil:
		return h, npyErr("header has no descr")
	default:
		return h, npyErr("structured dtype %v is not supported", x)
	}
	switch x := d["fortran_order"].(type) {
	case bool:
		h.fortran = x
	case nil:
		return h, npyErr("header has no fortran_order")
	default:
		return h, npyErr("fortran_order is not a bool")
	}
	t, ok := d["shape"].([]any)
	if !ok {
		return h, npyErr("header has no shape tuple")
	}
	h.shape = make([]int, 0, len(t))
	for _, e := range t {
		n, ok := e.(int)
		if !ok {
			return h, npyErr("shape %v holds a non-integer", t)
		}
		h.shape = append(h.shape, n)
	}
	return h, nil
}

// literalParser parses the small subset of Python literals a .npy header
// uses: dicts, tuples, lists, strings, integers, True, False and None.
type literalParser struct {
	s string
	i int
}

const maxLiteralDepth = 16

var errLiteral = errors.New("malformed literal")

func (p *literalParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *literalParser) value(depth int) (any, error) {
	if depth > maxLiteralDepth {
		return nil, errors.New("nesting too deep")
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("%w: unexpected end", errLiteral)
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.dict(depth)
	case c == '(' || c == '[':
		return p.sequence(depth)
	case c == '\'' || c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.integer()
	}
	for _, kw := range []struct {
		s string
		v any
	}{{"True", true}, {"False", false}, {"None", nil}} {
		if strings.HasPrefix(p.s[p.i:], kw.s) {
			p.i += len(kw.s)
			return kw.v, nil
		}
	}
	return nil, fmt.Errorf("%w: unexpected %q at offset %d", errLiteral, p.s[p.i], p.i)
}

func (p *literalParser) dict(depth int) (any, error) {
	p.i++ // {
	m := map[string]any{}
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return m, nil
		}
		k, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		ks, ok := k.(string)
		if !ok {
			return nil, fmt.Errorf("%w: dict key %v is not a string", errLiteral, k)
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, fmt.Errorf("%w: missing ':' after key %q", errLiteral, ks)
		}
		p.i++
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		m[ks] = v
		p.space()
		if p.i >= len(p.s) {
			return nil, fmt.Errorf("%w: unterminated dict", errLiteral)
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
		default:
			return nil, fmt.Errorf("%w: unexpected %q in dict", errLiteral, p.s[p.i])
		}
	}
}

func (p *literalParser) sequence(depth int) (any, error) {
	closing := byte(')')
	if p.s[p.i] == '[' {
		closing = ']'
	}
	p.i++
	out := []any{}
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == closing {
			p.i++
			return out, nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.space()
		if p.i >= len(p.s) {
			return nil, fmt.Errorf("%w: unterminated sequence", errLiteral)
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case closing:
		default:
			return nil, fmt.Errorf("%w: unexpected %q in sequence", errLiteral, p.s[p.i])
		}
	}
}

func (p *literalParser) str() (any, error) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\' && p.i+1 < len(p.s):
			b.WriteByte(p.s[p.i+1])
			p.i += 2
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return nil, fmt.Errorf("%w: unterminated string", errLiteral)
}

func (p *literalParser) integer() (any, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	// Python 2 era files may write long integers as "512L".
	end := p.i
	if p.i < len(p.s) && p.s[p.i] == 'L' {
		p.i++
	}
	n, err := strconv.Atoi(p.s[start:end])
	if err != nil {
		return nil, fmt.Errorf("%w: bad integer %q", errLiteral, p.s[start:end])
	}
	return n, nil
}
