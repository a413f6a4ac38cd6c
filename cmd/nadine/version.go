package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// buildVersion is what `nadine version` reports about this binary.
type buildVersion struct {
	// Version is the -X stamp, else the module version Go stamped from the
	// VCS ("+dirty" for a modified tree), else "dev".
	Version  string
	Module   string // the main module's path
	Revision string // VCS commit, "" when the build carried none
	Time     string // the commit's date (RFC 3339)
	Modified bool   // the tree had uncommitted changes
	Go       string // toolchain, OS and architecture
}

// readBuildVersion combines the -X stamp with Go's build information.
func readBuildVersion(stamp string, bi *debug.BuildInfo, ok bool) buildVersion {
	v := buildVersion{Version: stamp, Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	if ok && bi != nil {
		v.Module = bi.Main.Path
		if v.Version == "" || v.Version == "dev" {
			if mv := bi.Main.Version; mv != "" && mv != "(devel)" {
				v.Version = mv
			}
		}
		if bi.GoVersion != "" {
			v.Go = bi.GoVersion + " " + runtime.GOOS + "/" + runtime.GOARCH
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.time":
				v.Time = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if v.Version == "" {
		v.Version = "dev"
	}
	return v
}

// currentVersion is this binary's version information.
func currentVersion() buildVersion {
	bi, ok := debug.ReadBuildInfo()
	return readBuildVersion(version, bi, ok)
}

// String is the multi-line report of `nadine version`.
func (v buildVersion) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "nadine %s\n", v.Version)
	if v.Module != "" {
		fmt.Fprintf(&b, "  module    %s\n", v.Module)
	}
	if v.Revision == "" {
		b.WriteString("  revision  unknown (built without VCS information: not from a git checkout, or -buildvcs=false)\n")
	} else {
		state := "clean"
		if v.Modified {
			state = "modified"
		}
		fmt.Fprintf(&b, "  revision  %s (%s tree)\n", v.Revision, state)
		if v.Time != "" {
			fmt.Fprintf(&b, "  date      %s\n", v.Time)
		}
	}
	fmt.Fprintf(&b, "  go        %s\n", v.Go)
	return b.String()
}

// Short is the version with the abbreviated revision, for banners.
func (v buildVersion) Short() string {
	if v.Revision == "" || strings.Contains(v.Version, shortRev(v.Revision)) {
		return v.Version
	}
	s := v.Version + " (" + shortRev(v.Revision)
	if v.Modified {
		s += ", modified"
	}
	return s + ")"
}

func shortRev(r string) string {
	if len(r) > 12 {
		return r[:12]
	}
	return r
}

// runVersion prints the version, VCS revision and date of this build.
func runVersion(_ context.Context, args []string, e env) error {
	fs, _ := flags("version", e)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{"usage: nadine version"}
	}
	fmt.Fprint(e.stdout, currentVersion())
	return nil
}
