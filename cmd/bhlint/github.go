package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// writeGitHub is -format=github: one GitHub Actions workflow command per
// finding, which the runner turns into an annotation on the pull request's
// diff. File names are relative to the repository root, as the runner
// wants them, whatever directory bhlint ran in.
func writeGitHub(fs []finding, w io.Writer) error {
	root := repositoryRoot()
	for _, f := range fs {
		props := []string{
			"file=" + escapeProperty(repoRelative(root, f.Location.File)),
			fmt.Sprintf("line=%d", max(f.Location.Line, 1)),
			fmt.Sprintf("col=%d", max(f.Location.Column, 1)),
		}
		if f.Location.EndLine > 0 {
			props = append(props, fmt.Sprintf("endLine=%d", f.Location.EndLine))
			if f.Location.EndLine == f.Location.Line {
				props = append(props, fmt.Sprintf("endColumn=%d", f.Location.EndColumn))
			}
		}
		props = append(props, "title="+escapeProperty(f.Code))
		msg := f.Message + " (" + f.Analyzer + ")"
		for _, r := range f.Related {
			msg += fmt.Sprintf("\n%s:%d:%d: %s", repoRelative(root, r.File), r.Line, r.Column, r.Message)
		}
		if _, err := fmt.Fprintf(w, "::error %s::%s\n", strings.Join(props, ","), escapeData(msg)); err != nil {
			return err
		}
	}
	return nil
}

// repositoryRoot is the git work tree's top, or the working directory
// outside one.
func repositoryRoot() string {
	if root, err := gitRoot("."); err == nil {
		return resolved(root)
	}
	return resolved(".")
}

// repoRelative names a file relative to root, with forward slashes.
func repoRelative(root, file string) string {
	rel, err := filepath.Rel(root, resolved(file))
	if err != nil || strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(file)
	}
	return filepath.ToSlash(rel)
}

// escapeData and escapeProperty escape as the runner's workflow-command
// parser unescapes (@actions/core: escapeData, escapeProperty).
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
