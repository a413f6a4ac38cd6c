package main

import (
	"os"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/config"
)

// TestSystemdUnit keeps examples/nadine.service what the README says: its
// own user, its StateDirectory as the data directory (NADINE_DATA_DIR), the journal, a restart policy, a graceful stop and the
// sandbox; and the commands it runs exist.
func TestSystemdUnit(t *testing.T) {
	b, err := os.ReadFile("../../examples/nadine.service")
	if err != nil {
		t.Fatal(err)
	}
	unit := map[string][]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			unit[k] = append(unit[k], v)
		}
	}
	want := map[string]string{
		"User": "nadine", "Group": "nadine", "StateDirectory": "nadine", "WorkingDirectory": "/var/lib/nadine",
		"StandardError": "journal", "Restart": "on-failure", "KillSignal": "SIGTERM",
		"NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes",
		"CapabilityBoundingSet": "", "RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX",
		"ExecStart": "/usr/local/bin/nadine serve --config /etc/nadine/nadine.yaml",
	}
	for k, v := range want {
		if len(unit[k]) == 0 || unit[k][0] != v {
			t.Errorf("%s = %q, want %q", k, unit[k], v)
		}
	}
	env := map[string]string{"HOME": t.TempDir()}
	for _, v := range unit["Environment"] {
		if k, val, ok := strings.Cut(v, "="); ok {
			env[k] = val
		}
	}
	cfg, err := config.Load("../../examples/nadine.yaml", envMap(env))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.DataDir != "/var/lib/"+unit["StateDirectory"][0] {
		t.Errorf("under the unit, the data directory is %s, not the unit's StateDirectory", cfg.DataDir)
	}
	for _, k := range []string{"ExecStart", "ExecStartPre"} {
		fields := strings.Fields(unit[k][0])
		if _, ok := lookupCommand(fields[1]); !ok {
			t.Errorf("%s runs nadine %s, which is no command", k, fields[1])
		}
	}
}
