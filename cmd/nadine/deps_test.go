package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestProductionBinaryLinksNoTestCode: the nadine binary links neither
// testing nor net/http/httptest; the bench's scripted servers
// (internal/llmtest, internal/loopback) do without them.
func TestProductionBinaryLinksNoTestCode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "testing" || strings.HasPrefix(p, "testing/") || p == "net/http/httptest" {
			t.Errorf("the nadine binary links %s", p)
		}
	}
}
