package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// versionString describes this build from what the Go toolchain recorded
// in the binary: the module version (a tag under `go install …@v1.2.3`,
// "(devel)" in a checkout), the VCS commit, its time and whether the tree
// was modified, and the Go version. Nothing is stamped at build time, so
// `go build` and `go install` need no -ldflags.
func versionString() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return fmt.Sprintf("(unknown) %s %s/%s", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var revision, when string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	var details []string
	if revision != "" {
		if len(revision) > 12 {
			revision = revision[:12]
		}
		details = append(details, "commit "+revision)
	}
	if when != "" {
		details = append(details, when)
	}
	if modified {
		details = append(details, "modified")
	}
	s := version
	if len(details) > 0 {
		s += " (" + strings.Join(details, ", ") + ")"
	}
	return fmt.Sprintf("%s %s %s/%s", s, info.GoVersion, runtime.GOOS, runtime.GOARCH)
}
