package modeltest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/nadine-robot/nadine/modelcache"
)

// TestSourceKey: the key changes with a file that builds (an example, the
// training code) and not with a test, test data or documentation.
func TestSourceKey(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	key := func() string {
		t.Helper()
		k, err := sourceKey(root)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	write("go.mod", "module x\n")
	write("offline/examples/en.txt", "hello\n")
	first := key()
	for _, unrelated := range []string{"offline/a_test.go", "offline/testdata/x.txt", "docs/offline.md", "README.md", ".git/HEAD"} {
		write(unrelated, "changed\n")
		if k := key(); k != first {
			t.Errorf("%s changed the key", unrelated)
		}
	}
	write("offline/examples/en.txt", "hello there\n")
	if k := key(); k == first {
		t.Error("an example changed and the key did not")
	}
}

// TestExchange: the shared models reach a command's cache under its key,
// and what the command trained comes back.
func TestExchange(t *testing.T) {
	shared := filepath.Join(t.TempDir(), "k1")
	sharedFiles := &modelcache.Files{Dir: shared, Key: "k1"}
	if err := sharedFiles.Save("backstage-1", []byte("one")); err != nil {
		t.Fatal(err)
	}
	cmd := &modelcache.Files{Dir: t.TempDir(), Key: "exe"}
	back := Exchange(shared, cmd)
	if b, err := cmd.Load("backstage-1"); err != nil || string(b) != "one" {
		t.Fatalf("command's cache: %q, %v", b, err)
	}
	if err := cmd.Save("offline", []byte("two")); err != nil {
		t.Fatal(err)
	}
	back()
	if b, err := sharedFiles.Load("offline"); err != nil || string(b) != "two" {
		t.Fatalf("shared cache after: %q, %v", b, err)
	}
}

// TestShare: with the shared cache and the target opened, the models
// cross; with either missing, nothing is opened or copied.
func TestShare(t *testing.T) {
	shared := filepath.Join(t.TempDir(), "k1")
	if err := (&modelcache.Files{Dir: shared, Key: "k1"}).Save("backstage-1", []byte("one")); err != nil {
		t.Fatal(err)
	}
	cmd := &modelcache.Files{Dir: t.TempDir(), Key: "exe"}
	opened := 0
	open := func() (*modelcache.Files, error) { opened++; return cmd, nil }
	Share(shared, errors.New("no module root"), open)()
	if _, err := cmd.Load("backstage-1"); err == nil || opened != 0 {
		t.Fatalf("without the shared cache: opened %d times, copied: %v", opened, err == nil)
	}
	Share(shared, nil, func() (*modelcache.Files, error) { return nil, errors.New("no executable") })()
	Share(shared, nil, open)()
	if b, err := cmd.Load("backstage-1"); err != nil || string(b) != "one" || opened != 1 {
		t.Fatalf("with both: %q, %v, opened %d times", b, err, opened)
	}
}
