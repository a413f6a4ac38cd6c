package configtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Environ lists variables as os.Environ does.
func Environ(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	return out
}

// WriteConfig writes a configuration file in a temporary folder and returns its path.
func WriteConfig(t testing.TB, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "nadine.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
