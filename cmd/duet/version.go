package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
)

func init() {
	register("version", "print the version of duet: the module version, the commit it was built from, the Go release", runVersion)
}

func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("version", stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: usage: duet version", errUsage)
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Fprintln(stdout, versionLine(info))
	return nil
}

// versionLine describes a build: "duet v1.2.3 (commit 0123abcd4567, modified) go1.26.8".
// `go build` in a clone (make build) records the commit; `go install …@v`
// records the module version.
func versionLine(info *debug.BuildInfo) string {
	if info == nil {
		return "duet (no build information)"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var commit, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	out := "duet " + version
	if commit != "" {
		out += " (commit " + commit[:min(12, len(commit))] + dirty + ")"
	}
	return out + " " + info.GoVersion
}
