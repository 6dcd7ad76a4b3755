package main

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/bhlint/bhlint/internal/lazyssa"
)

// configErrorAt finds the file and line a .bhlint.yml error names
// ("…/.bhlint.yml: line 3: unknown key …"; the line is absent for errors
// about a whole list).
var configErrorAt = regexp.MustCompile(`(\S*\.bhlint\.yml): (?:line (\d+): )?`)

// notAnalysed turns a configuration error that stopped the analysis of the
// document's package into diagnostics the editor cannot miss, so that a bad
// .bhlint.yml never looks like a clean file: one at the top of the document
// saying it was not analysed and why, one on the configuration file at the
// line at fault, and an error message to the user. Other errors (the
// package does not build: gopls shows why) are only logged.
func (s *lspServer) notAnalysed(ctx context.Context, conn *jsonrpc2.Conn, doc string, err error) []finding {
	m := configErrorAt.FindStringSubmatch(err.Error())
	if m == nil {
		return nil
	}
	conn.Notify(ctx, "window/showMessage", map[string]any{"type": msgError, "message": err.Error()})
	line, _ := strconv.Atoi(m[2])
	return []finding{
		{Analyzer: "config", Message: "this package was not analysed: " + err.Error(), Location: location{File: doc, Line: 1, Column: 1}, category: configErrorCategory},
		{Analyzer: "config", Message: err.Error(), Location: location{File: m[1], Line: max(line, 1), Column: 1}, category: configErrorCategory},
	}
}

// configErrorCategory marks the diagnostics of a configuration error.
const configErrorCategory = "config-error"

// skipNotices shows the functions the analysis skipped (over the SSA
// budget) in the editor too, as information on the function: not checked
// is not clean.
func skipNotices(sum *runSummary) []finding {
	if sum == nil {
		return nil
	}
	var out []finding
	for _, sk := range sum.Skipped {
		out = append(out, finding{Analyzer: sk.Analyzer, Message: sk.Message, Location: sk.Location, category: lazyssa.SkipCategory})
	}
	return out
}

// lspSeverity: findings are warnings (they sit beside gopls's errors, not
// above them); a configuration that stopped the analysis is an error; a
// skipped function is information; a finding the baseline holds is a hint
// (editors show it faintly, or not at all).
func lspSeverity(f finding) int {
	switch f.category {
	case configErrorCategory:
		return 1
	case lazyssa.SkipCategory:
		return 3
	case baselinedCategory:
		return 4
	}
	return 2
}

// baselinedCategory marks a finding the baseline holds back.
const baselinedCategory = "baselined"

// baselinePath is the client's initializationOptions.baseline made
// absolute: relative to the workspace root the client names, or to the
// server's directory.
func baselinePath(file, rootURI string) string {
	if file == "" || filepath.IsAbs(file) {
		return file
	}
	if root, err := fileOf(rootURI); rootURI != "" && err == nil {
		return filepath.Join(root, file)
	}
	abs, _ := filepath.Abs(file)
	return abs
}

// markBaselined shows the findings the baseline holds as hints, as the
// command holds them back, so that the editor still shows old findings
// to whoever works on that code, without the warnings of new ones. A
// baseline that cannot be read is logged, and every finding shown.
func (s *lspServer) markBaselined(ctx context.Context, conn *jsonrpc2.Conn, findings []finding) []finding {
	s.mu.Lock()
	file := s.baseline
	s.mu.Unlock()
	if file == "" {
		return findings
	}
	b, err := readBaseline(file)
	if err != nil {
		s.logMessage(ctx, conn, msgError, err.Error())
		return findings
	}
	m := b.apply(findings, newKeyer(), func(findingKey) bool { return false })
	for i := range m.held {
		m.held[i].category = baselinedCategory
		m.held[i].Message += " (held back by the baseline " + filepath.Base(file) + ")"
	}
	return append(m.fresh, m.held...)
}
