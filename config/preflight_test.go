package config

import (
	"regexp"
	"testing"

	"github.com/nadine-robot/nadine/internal/configtest"
)

// TestStartRules gives every part of startRules a configuration that
// breaks its check: the pre-flight refuses it, blaming the case's field
// where the file gave it (TestPreflightWalksTheRules, in cmd/nadine, runs
// serve on the same cases and wants the same error).
func TestStartRules(t *testing.T) {
	home := t.TempDir()
	parts := map[string]bool{}
	for _, tt := range configtest.StartRules(t) {
		file := writeConfig(t, tt.File)
		vars := map[string]string{"HOME": home} // the pre-flight binds no port: the defaults' are fine
		_, err := Preflight(file, envMap(vars), environList(vars))
		at := regexp.MustCompile(`(?m)^config: ` + regexp.QuoteMeta(file) + `:\d+: ` + regexp.QuoteMeta(tt.Path) + `: .*` + regexp.QuoteMeta(tt.Want))
		if err == nil || !at.MatchString(err.Error()) {
			t.Errorf("%s (%q): error %v\nwant %q blamed at %s:LINE with %q", tt.Path, tt.File, err, tt.Path, file, tt.Want)
		}
		for _, r := range startRules {
			if tt.Path == r.path || under(tt.Path, r.path) {
				parts[r.path] = true
			}
		}
	}
	for _, r := range startRules {
		if !parts[r.path] {
			t.Errorf("start rule %s has no case", r.path)
		}
	}
}
