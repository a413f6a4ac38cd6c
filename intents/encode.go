package intents

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"math"
	"slices"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/lexical"
)

// The encoded model: magic, format version, the fields, then a CRC-32C of all
// that precedes it. A change of what a Model holds is a new version.
const (
	encodingMagic   = "NDIM"
	encodingVersion = 3
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// MarshalBinary encodes everything the model holds, so that UnmarshalBinary
// returns a model classifying exactly as this one does.
func (m *Model) MarshalBinary() ([]byte, error) {
	var e encoder
	e.b = append(e.b, encodingMagic...)
	e.b = append(e.b, encodingVersion)
	e.strings(m.labels)
	e.uint(uint64(len(m.langs)))
	for _, l := range m.langs {
		e.string(string(l))
	}
	e.strings(slices.Sorted(maps.Keys(m.feat.known)))
	e.uint(uint64(len(m.feat.lookup)))
	for _, k := range slices.Sorted(maps.Keys(m.feat.lookup)) {
		e.string(k)
		vs := m.feat.lookup[k]
		e.uint(uint64(len(vs)))
		for _, v := range vs {
			e.strings(v.words)
			e.string(v.slot)
		}
	}
	w := m.feat.weights
	e.float64(w.Words)
	e.float64(w.Bigrams)
	e.float64(w.Chars)
	e.uint(uint64(w.MaxGram))
	hashes := make([]uint64, len(m.index))
	for h, row := range m.index {
		hashes[row] = h
	}
	e.uint(uint64(len(hashes)))
	for _, h := range hashes {
		e.b = binary.LittleEndian.AppendUint64(e.b, h)
	}
	for _, fs := range [][]float32{m.w, m.b, m.lw, m.lb} {
		e.float32s(fs)
	}
	e.uint(uint64(len(m.slots)))
	for _, slot := range slices.Sorted(maps.Keys(m.slots)) {
		e.string(slot)
		cs := m.slots[slot]
		e.uint(uint64(len(cs)))
		for _, c := range cs {
			e.string(string(c.lang))
			e.strings(c.left)
			e.strings(c.right)
			e.float64(c.strength)
		}
	}
	// words by language, in the order of the languages (stems are derived)
	langs := slices.Sorted(maps.Keys(m.words))
	e.uint(uint64(len(langs)))
	for _, lang := range langs {
		e.string(string(lang))
		e.strings(slices.Sorted(maps.Keys(m.words[lang])))
	}
	e.float64(m.neighbours)
	e.float64(m.temp)
	dims := 0
	if m.emb != nil {
		dims = m.emb.Dims()
	}
	e.uint(uint64(dims))
	e.uint(uint64(len(m.vecs)))
	for _, vs := range m.vecs {
		e.uint(uint64(len(vs)))
		for _, v := range vs {
			e.float32s(v)
		}
	}
	e.b = binary.LittleEndian.AppendUint32(e.b, crc32.Checksum(e.b, castagnoli))
	return e.b, nil
}

// UnmarshalBinary decodes what MarshalBinary encoded into m; a wrong format
// version, a bad checksum or a truncated encoding is an error.
func (m *Model) UnmarshalBinary(data []byte) error {
	n := len(data) - 4
	if n < len(encodingMagic)+1 || !bytes.HasPrefix(data, []byte(encodingMagic)) {
		return errors.New("intents: decode: not an encoded model")
	}
	if v := data[len(encodingMagic)]; v != encodingVersion {
		return fmt.Errorf("intents: decode: format version %d, want %d", v, encodingVersion)
	}
	if crc32.Checksum(data[:n], castagnoli) != binary.LittleEndian.Uint32(data[n:]) {
		return errors.New("intents: decode: checksum mismatch")
	}
	d := decoder{b: data[len(encodingMagic)+1 : n]}
	var out Model
	out.labels = d.strings()
	out.langs = make([]nadine.Language, d.len(1))
	for i := range out.langs {
		out.langs[i] = nadine.Language(d.string())
	}
	out.feat.known = make(map[string]bool)
	for _, k := range d.strings() {
		out.feat.known[k] = true
	}
	if nl := d.len(2); nl > 0 {
		out.feat.lookup = make(map[string][]lookupValue, nl)
		for range nl {
			k := d.string()
			vs := make([]lookupValue, d.len(2))
			for i := range vs {
				vs[i].words = d.strings()
				vs[i].slot = d.string()
			}
			out.feat.lookup[k] = vs
		}
	}
	out.feat.weights = Weights{Words: d.float64(), Bigrams: d.float64(), Chars: d.float64(), MaxGram: int(d.uint())}
	rows := d.len(8)
	out.index = make(map[uint64]int32, rows)
	for i := range rows {
		out.index[d.uint64()] = int32(i)
	}
	out.w, out.b, out.lw, out.lb = d.float32s(), d.float32s(), d.float32s(), d.float32s()
	ns := d.len(2)
	out.slots = make(slotContexts, ns)
	for range ns {
		slot := d.string()
		cs := make([]context, d.len(4))
		for i := range cs {
			cs[i] = context{lang: nadine.Language(d.string()), left: d.strings(), right: d.strings(), strength: d.float64()}
		}
		out.slots[slot] = cs
	}
	nw := d.len(2)
	out.words = make(map[nadine.Language]map[string]bool, nw)
	out.stems = make(map[nadine.Language]map[string]int, nw)
	for range nw {
		lang := nadine.Language(d.string())
		out.words[lang] = set(d.strings())
		out.stems[lang] = StemsOf(out.words[lang])
	}
	out.neighbours, out.temp = d.float64(), d.float64()
	if dims := int(d.uint()); dims > 0 {
		out.emb = lexical.New(dims)
	}
	if nv := d.len(1); nv > 0 {
		out.vecs = make([][][]float32, nv)
		for l := range out.vecs {
			out.vecs[l] = make([][]float32, d.len(1))
			for i := range out.vecs[l] {
				out.vecs[l][i] = d.float32s()
			}
		}
	}
	if d.err != nil {
		return d.err
	}
	if len(d.b) != 0 {
		return fmt.Errorf("intents: decode: %d bytes left over", len(d.b))
	}
	k, kl := len(out.labels), len(out.langs)
	if len(out.w) != rows*k || len(out.b) != k || len(out.lw) != rows*kl || len(out.lb) != kl ||
		(out.vecs != nil && len(out.vecs) != k) || (out.neighbours > 0 && out.emb == nil) {
		return errors.New("intents: decode: inconsistent sizes")
	}
	*m = out
	return nil
}

// encoder appends fields: lengths and counts as uvarints, numbers as their
// little-endian bits (so that every float comes back bit for bit).
type encoder struct{ b []byte }

func (e *encoder) uint(x uint64) { e.b = binary.AppendUvarint(e.b, x) }
func (e *encoder) float64(x float64) {
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(x))
}

func (e *encoder) string(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

func (e *encoder) strings(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.string(s)
	}
}

func (e *encoder) float32s(fs []float32) {
	e.uint(uint64(len(fs)))
	for _, f := range fs {
		e.b = binary.LittleEndian.AppendUint32(e.b, math.Float32bits(f))
	}
}

// decoder reads what encoder wrote; its first error sticks and every read
// after it returns zero values.
type decoder struct {
	b   []byte
	err error
}

var errTruncated = errors.New("intents: decode: truncated")

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errTruncated
	}
	d.b = nil
}

func (d *decoder) uint() uint64 {
	x, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return x
}

// len reads a count of items of at least size bytes each, refusing one the
// rest cannot hold (so a corrupt count allocates nothing large).
func (d *decoder) len(size int) int {
	n := d.uint()
	if n > uint64(len(d.b)/size) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *decoder) take(n int) []byte {
	if n > len(d.b) {
		d.fail()
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) uint64() uint64 {
	if b := d.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (d *decoder) float64() float64 { return math.Float64frombits(d.uint64()) }

func (d *decoder) string() string { return string(d.take(d.len(1))) }

func (d *decoder) strings() []string {
	n := d.len(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.string()
	}
	return out
}

func (d *decoder) float32s() []float32 {
	b := d.take(4 * d.len(4))
	if len(b) == 0 {
		return nil
	}
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// set is a set of ss.
func set(ss []string) map[string]bool {
	out := make(map[string]bool, len(ss))
	for _, s := range ss {
		out[s] = true
	}
	return out
}
