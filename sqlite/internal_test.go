package sqlite

import (
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nadine-robot/nadine/internal/records"
)

func TestWriterPragmas(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "nadine.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tests := []struct {
		pragma string
		want   string
	}{
		{"journal_mode", "wal"},
		{"synchronous", "2"}, // FULL
		{"foreign_keys", "1"},
		{"busy_timeout", "5000"},
	}
	for _, tt := range tests {
		var got string
		if err := s.w.QueryRowContext(t.Context(), "PRAGMA "+tt.pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("writer PRAGMA %s = %s, want %s", tt.pragma, got, tt.want)
		}
	}
	var readOnly string
	if err := s.r.QueryRowContext(t.Context(), "PRAGMA query_only").Scan(&readOnly); err != nil || readOnly != "1" {
		t.Errorf("reader PRAGMA query_only = %q, %v; want 1", readOnly, err)
	}
	if _, err := s.r.ExecContext(t.Context(), `DELETE FROM memories`); err == nil {
		t.Error("a write through the read pool succeeded, want it refused")
	}
}

func TestVectorEncoding(t *testing.T) {
	tests := [][]float32{
		nil,
		{0},
		{1, -2.5, float32(math.Inf(1)), math.SmallestNonzeroFloat32, math.MaxFloat32},
	}
	for _, v := range tests {
		b := records.EncodeVector(v)
		if len(b) != 4*len(v) {
			t.Errorf("records.EncodeVector(%v) = %d bytes, want %d", v, len(b), 4*len(v))
		}
		got, err := records.DecodeVector(b, nil)
		if err != nil || !slices.Equal(got, v) && len(v) > 0 {
			t.Errorf("records.DecodeVector(records.EncodeVector(%v)) = %v, %v", v, got, err)
		}
	}
	// Little-endian: 1.0 is 0x3f800000.
	if got := records.EncodeVector([]float32{1}); !slices.Equal(got, []byte{0, 0, 0x80, 0x3f}) {
		t.Errorf("records.EncodeVector(1) = % x, want 00 00 80 3f", got)
	}
	if _, err := records.DecodeVector([]byte{1, 2, 3}, nil); err == nil {
		t.Error("decodeVector of 3 bytes succeeded, want an error")
	}
}

func TestTopK(t *testing.T) {
	var b setBuilder
	for i, v := range [][]float32{{1, 0}, {0, 1}, {1, 1}, {0, 0}, {1, 0, 0}, {-1, 0}, {2, 0}} {
		b.add(int64(i+1), kindFact, "e", v)
	}
	b.add(99, kindFact, "other", []float32{1, 0})
	set := &b.set
	tests := []struct {
		name string
		q    []float32
		k    int
		want []int64
	}{
		{"ties broken by id", []float32{1, 0}, 3, []int64{1, 7, 3}},
		{"all, zero vector scores 0", []float32{1, 0}, 10, []int64{1, 7, 3, 2, 4, 6}},
		{"k 0", []float32{1, 0}, 0, nil},
		{"zero query", []float32{0, 0}, 2, []int64{1, 2}},
		{"other dimension", []float32{0, 0, 1}, 5, []int64{5}},
	}
	for _, tt := range tests {
		var got []int64
		for _, s := range set.topK(tt.q, "e", tt.k, allKinds) {
			if math.IsNaN(s.score) {
				t.Errorf("%s: NaN score for %d", tt.name, s.id)
			}
			got = append(got, s.id)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: topK = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestVectorCacheEviction(t *testing.T) {
	c := newVectorCache(2 * emptySetBytes)
	loads := 0
	load := func() (*vecSet, error) { loads++; return &vecSet{}, nil }
	for _, k := range []string{"a", "b", "a", "c", "a", "b"} {
		if _, err := c.get(t.Context(), k, load); err != nil {
			t.Fatal(err)
		}
	}
	// a, b load; a hits; c evicts b (least recently used); a hits; b loads again.
	if loads != 4 || c.len() != 2 {
		t.Errorf("loads = %d, cached = %d; want 4 loads, 2 cached", loads, c.len())
	}
	c.invalidate("a")
	if _, err := c.get(t.Context(), "a", load); err != nil || loads != 5 {
		t.Errorf("get after invalidate: loads = %d, %v; want a reload", loads, err)
	}
	// A load overlapping an invalidation is not cached.
	if _, err := c.get(t.Context(), "z", func() (*vecSet, error) { c.invalidate("z"); return &vecSet{}, nil }); err != nil {
		t.Fatal(err)
	}
	before := loads
	if _, err := c.get(t.Context(), "z", load); err != nil || loads != before+1 {
		t.Errorf("a load that overlapped an invalidation was cached")
	}
}

func BenchmarkDot768(b *testing.B) {
	x, y := make([]float32, 768), make([]float32, 768)
	for i := range x {
		x[i], y[i] = float32(i%7), float32(i%5)
	}
	var s float32
	for b.Loop() {
		s += dot(x, y)
	}
	_ = s
}

func BenchmarkDecodeBlock(b *testing.B) {
	v := make([]float32, 64*768)
	for i := range v {
		v[i] = float32(i)
	}
	blob := records.EncodeVector(v)
	dst := make([]float32, len(v))
	for b.Loop() {
		if _, err := records.DecodeVector(blob, dst); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(blob)))
}

// TestMigrationRecordsKnowledgeSources: a knowledge base built before the
// sources were recorded keeps its chunks, each under a source named after
// its Source, the built-in documents marked as such.
func TestMigrationRecordsKnowledgeSources(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "nadine.db")
	db := oldSchema(t, path)
	for _, src := range []string{"default/nadine.md", "default/nadine.md", "museum.txt"} {
		if _, err := db.Exec(`INSERT INTO knowledge (source, title, text, embedder, dims, embedding) VALUES (?, 't', 'text', 'e1', 2, ?)`,
			src, records.EncodeVector([]float32{1, 0})); err != nil {
			t.Fatal(err)
		}
	}
	s := reopen(t, db, path)
	srcs, err := s.KnowledgeSources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) != 2 || srcs[0].Key != "default/nadine.md" || !srcs[0].Builtin || srcs[0].Chunks != 2 ||
		srcs[1].Key != "museum.txt" || srcs[1].Builtin || srcs[1].Chunks != 1 || srcs[1].Hash != "" {
		t.Errorf("sources after the migration = %+v", srcs)
	}
}

// TestPersonalTablesListed: every table with a user_id column is one that
// ForgetUser erases (a table added without listing it would keep an erased
// person's data).
func TestPersonalTablesListed(t *testing.T) {
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "nadine.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.w.QueryContext(t.Context(), `SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) p
		WHERE m.type = 'table' AND p.name = 'user_id' ORDER BY m.name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		got = append(got, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := slices.Sorted(slices.Values(personalTables))
	if !slices.Equal(got, want) {
		t.Errorf("tables with a user_id column %q, ForgetUser erases %q", got, want)
	}
}
