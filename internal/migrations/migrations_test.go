package migrations

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestLoad(t *testing.T) {
	tests := []struct {
		name    string
		files   []string
		want    []int
		wantErr string
	}{
		{"ordered by number, not by name", []string{"0010_c.sql", "0002_b.sql", "0001_a.sql"}, []int{1, 2, 10}, ""},
		{"none", nil, nil, ""},
		{"no number", []string{"init.sql"}, nil, "init.sql"},
		{"zero", []string{"0000_a.sql"}, nil, "0000_a.sql"},
		{"not SQL", []string{"0001_a.txt"}, nil, "0001_a.txt"},
		{"same version", []string{"0001_a.sql", "01_b.sql"}, nil, "share version 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"m": {Mode: fs.ModeDir | 0o755}} // a directory, even when empty
			for _, f := range tt.files {
				fsys["m/"+f] = &fstest.MapFile{Data: []byte("-- " + f)}
			}
			ms, err := Load(fsys, "m")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Load = %v, %v; want an error naming %q", ms, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, m := range ms {
				got = append(got, m.Version)
				if m.SQL != "-- "+m.Name {
					t.Errorf("migration %s has SQL %q", m.Name, m.SQL)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("versions = %v, want %v", got, tt.want)
			}
		})
	}
}
