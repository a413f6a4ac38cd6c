package modelcache

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

func TestFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "models")
	f := &Files{Dir: dir, Key: "k1"}
	if _, err := f.Load("offline"); err == nil {
		t.Fatal("an empty cache loaded a model")
	}
	if err := f.Save("offline", []byte("one")); err != nil {
		t.Fatal(err)
	}
	if b, err := f.Load("offline"); err != nil || string(b) != "one" {
		t.Fatalf("load: %q, %v", b, err)
	}
	if err := f.Save("offline", []byte("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := f.Load("offline"); string(b) != "two" {
		t.Errorf("a second save left %q", b)
	}
	// Another name stays; another key replaces this name's file of the old key.
	if err := f.Save("offline-2", []byte("other")); err != nil {
		t.Fatal(err)
	}
	f2 := &Files{Dir: dir, Key: "k2"}
	if _, err := f2.Load("offline"); err == nil {
		t.Error("another key loaded this key's model")
	}
	if err := f2.Save("offline", []byte("three")); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"offline-2-k1.model", "offline-k2.model"}; !slices.Equal(names, want) {
		t.Errorf("the cache holds %v, want %v (no temporary file, the old key's removed)", names, want)
	}
	if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("cache directory %v, %v; want mode 0700", st.Mode(), err)
	}
}

func TestFilesRejects(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []struct {
		files *Files
		name  string
	}{
		{&Files{Dir: dir, Key: "k"}, "../escape"},
		{&Files{Dir: dir, Key: "k"}, ""},
		{&Files{Dir: dir, Key: "a-b"}, "offline"},
		{&Files{Dir: dir}, "offline"},
	} {
		if err := f.files.Save(f.name, []byte("x")); err == nil {
			t.Errorf("saved %q with key %q", f.name, f.files.Key)
		}
	}
	// A directory that cannot be made: an error, nothing written.
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o600)
	if err := (&Files{Dir: filepath.Join(file, "models"), Key: "k"}).Save("offline", []byte("x")); err == nil {
		t.Error("saved under a file")
	}
}

// TestFilesConcurrent: writers and readers of one model at once; a reader
// sees a whole file or none, never half of one.
func TestFilesConcurrent(t *testing.T) {
	f := &Files{Dir: t.TempDir(), Key: "k"}
	contents := [][]byte{bytes.Repeat([]byte("a"), 1<<20), bytes.Repeat([]byte("b"), 1<<20)}
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			for range 10 {
				if i%2 == 0 {
					if err := f.Save("offline", contents[i%4/2]); err != nil {
						t.Error(err)
					}
					continue
				}
				b, err := f.Load("offline")
				if err == nil && !bytes.Equal(b, contents[0]) && !bytes.Equal(b, contents[1]) {
					t.Errorf("read %d bytes that are no whole file", len(b))
				}
			}
		})
	}
	wg.Wait()
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", dir)
	f, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "nadine", "models"); f.Dir != want || len(f.Key) != 32 {
		t.Errorf("cache %+v, want %s and a key", f, want)
	}
	if again, _ := Open(); again.Key != f.Key {
		t.Error("the executable's key changed within a process")
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	if f, err := Open(); err == nil {
		t.Errorf("without HOME the cache is %q, want none", f.Dir)
	}
}

// BenchmarkExecutableHash measures the key, computed once per process.
func BenchmarkExecutableHash(b *testing.B) {
	exe, _ := os.Executable()
	st, _ := os.Stat(exe)
	b.SetBytes(st.Size())
	for b.Loop() {
		if _, err := hashExecutable(); err != nil {
			b.Fatal(err)
		}
	}
}
