package records_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

func TestInputChecks(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string // "" for no error
	}{
		{"key", records.NeedKey("sqlite", "save checkpoint", "k"), ""},
		{"empty key", records.NeedKey("sqlite", "save checkpoint", ""), "sqlite: save checkpoint: empty key"},
		{"name", records.NeedName("postgres", "set user name", "u", "Ana"), ""},
		{"empty name", records.NeedName("postgres", "set user name", "u", ""), `postgres: set user name: empty name for user "u"`},
		{"name without user", records.NeedName("postgres", "set user name", "", "Ana"), "postgres: set user name: empty user id"},
		{"scene", records.NeedScene("sqlite", "upsert scenes", nadine.Scene{UserID: "u", SceneID: "s"}), ""},
		{"empty scene id", records.NeedScene("sqlite", "upsert scenes", nadine.Scene{UserID: "u"}), `sqlite: upsert scenes: empty scene id for user "u"`},
		{"scene without user", records.NeedScene("sqlite", "upsert scenes", nadine.Scene{SceneID: "s"}), "sqlite: upsert scenes: empty user id"},
	}
	for _, tt := range tests {
		switch {
		case tt.want == "" && tt.err != nil:
			t.Errorf("%s: %v", tt.name, tt.err)
		case tt.want != "" && (nadine.ErrorCode(tt.err) != nadine.EINVALID || tt.err.Error() != tt.want):
			t.Errorf("%s: got %v, want EINVALID %q", tt.name, tt.err, tt.want)
		}
	}
}

func TestKnowledgeDocuments(t *testing.T) {
	upper := func(m map[string]string) (string, error) {
		if m["bad"] != "" {
			return "", errors.New("cannot encode")
		}
		return strings.ToUpper(m["k"]), nil
	}
	docs := []nadine.KnowledgeDocument{
		{Source: nadine.KnowledgeSource{Key: "a"}, Chunks: []nadine.KnowledgeChunk{{Metadata: map[string]string{"k": "x"}}, {}}},
		{Source: nadine.KnowledgeSource{Key: "b"}, Chunks: []nadine.KnowledgeChunk{{Metadata: map[string]string{"k": "y"}}}},
	}
	mds, err := records.KnowledgeDocuments("sqlite", docs, upper)
	if err != nil || len(mds) != 2 || !slices.Equal(mds[0], []string{"X", ""}) || !slices.Equal(mds[1], []string{"Y"}) {
		t.Fatalf("got %q, %v", mds, err)
	}
	docs[1].Source.Key = ""
	if _, err := records.KnowledgeDocuments("sqlite", docs, upper); nadine.ErrorCode(err) != nadine.EINVALID || !strings.HasPrefix(err.Error(), "sqlite: put knowledge: ") {
		t.Errorf("a source without a key: %v", err)
	}
	docs[1].Source.Key = "b"
	docs[1].Chunks[0].Title, docs[1].Chunks[0].Metadata = "T", map[string]string{"bad": "1"}
	if _, err := records.KnowledgeDocuments("sqlite", docs, upper); err == nil || err.Error() != `sqlite: put knowledge: b: metadata of "T": cannot encode` {
		t.Errorf("bad metadata: %v", err)
	}
}

func TestRowsAndOne(t *testing.T) {
	ms := []nadine.Memory{{Text: "a"}, {Text: "bb"}}
	n, err := records.Rows(ms, func(m nadine.Memory) (int, error) { return len(m.Text), nil })
	if err != nil || !slices.Equal(n, []int{1, 2}) {
		t.Errorf("Rows = %v, %v", n, err)
	}
	boom := errors.New("boom")
	if _, err := records.Rows(ms, func(nadine.Memory) (int, error) { return 0, boom }); err != boom {
		t.Errorf("Rows error = %v", err)
	}
	if v, err := records.One([]int64{7}, nil); v != 7 || err != nil {
		t.Errorf("One = %d, %v", v, err)
	}
	if v, err := records.One[int64](nil, boom); v != 0 || err != boom {
		t.Errorf("One of an error = %d, %v", v, err)
	}
}

// fakeRows is a result of (name, count) rows.
type fakeRows struct {
	names []string
	i     int
	err   error
}

func (r *fakeRows) Next() bool { r.i++; return r.i <= len(r.names) }
func (r *fakeRows) Err() error { return r.err }
func (r *fakeRows) Scan(dest ...any) error {
	*dest[0].(*string), *dest[1].(*int) = r.names[r.i-1], r.i
	return nil
}

func TestCounts(t *testing.T) {
	got, err := records.Counts(&fakeRows{names: []string{"a", "b"}})
	if err != nil || len(got) != 2 || got["a"] != 1 || got["b"] != 2 {
		t.Errorf("Counts = %v, %v", got, err)
	}
	boom := errors.New("boom")
	if _, err := records.Counts(&fakeRows{err: boom}); err != boom {
		t.Errorf("Counts error = %v", err)
	}
}

func TestVectorLayout(t *testing.T) {
	for _, v := range [][]float32{{1}, {0.5, -2, 3.25}, nil} {
		b := records.EncodeVector(v)
		if len(b) != 4*len(v) {
			t.Errorf("EncodeVector(%v) = %d bytes", v, len(b))
		}
		got, err := records.DecodeVector(b, make([]float32, 0, 8))
		if err != nil || !slices.Equal(got, v) && len(v) > 0 {
			t.Errorf("DecodeVector(EncodeVector(%v)) = %v, %v", v, got, err)
		}
	}
	if got := records.EncodeVector([]float32{1}); !slices.Equal(got, []byte{0, 0, 0x80, 0x3f}) {
		t.Errorf("EncodeVector(1) = % x, want 00 00 80 3f (little-endian)", got)
	}
	if _, err := records.DecodeVector([]byte{1, 2, 3}, nil); err == nil {
		t.Error("3 bytes decoded")
	}
}
