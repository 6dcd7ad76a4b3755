package main

import (
	"context"
	"regexp"
	"strconv"

	"github.com/sourcegraph/jsonrpc2"
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
		{Analyzer: "config", Message: "this package was not analysed: " + err.Error(), Location: location{File: doc, Line: 1, Column: 1}},
		{Analyzer: "config", Message: err.Error(), Location: location{File: m[1], Line: max(line, 1), Column: 1}},
	}
}
