package main

import (
	"slices"
	"strings"
	"unicode/utf16"
)

type codeActionParams struct {
	TextDocument struct {
		URI string `json:"uri"`
	} `json:"textDocument"`
	Range   lspRange `json:"range"`
	Context struct {
		Only []string `json:"only"`
	} `json:"context"`
}

// codeActions offers, for each finding published for the document that
// the range touches, its suggested fixes and an ignore with a reason. The
// actions are built from what was published, so they match the file that
// was analysed (the server does not follow unsaved edits).
func (s *lspServer) codeActions(params codeActionParams) []map[string]any {
	actions := []map[string]any{}
	if len(params.Context.Only) > 0 && !slices.Contains(params.Context.Only, "quickfix") {
		return actions // every action here is a quick fix
	}
	file, err := fileOf(params.TextDocument.URI)
	if err != nil {
		return actions
	}
	s.mu.Lock()
	ps, snippets := s.diagnostics[file], s.client.Workspace.WorkspaceEdit.SnippetEditSupport
	s.mu.Unlock()
	for _, p := range ps {
		if !overlaps(p.rng, params.Range) {
			continue
		}
		for i, fx := range p.fixes {
			actions = append(actions, map[string]any{
				"title":       fx.title,
				"kind":        "quickfix",
				"diagnostics": []any{p.diagnostic},
				"isPreferred": i == 0,
				"edit":        map[string]any{"changes": fx.edits},
			})
		}
		if a := suppressAction(p, params.TextDocument.URI, snippets); a != nil {
			actions = append(actions, a)
		}
	}
	return actions
}

// suppressAction writes //bhlint:ignore CODE on the line above the finding,
// or at the end of its line when the line above holds an ignore already
// (one ignore covers its own line and the next). With snippet support the
// reason is a placeholder to type over; without it the ignore has no
// reason, which suppresses nothing and is reported until one is written.
func suppressAction(p published, uri string, snippets bool) map[string]any {
	code := p.finding.Code
	if code == "" {
		return nil
	}
	line := p.rng.Start.Line
	var at lspPosition
	var before, after string
	switch {
	case !p.prevIgnore:
		at = lspPosition{Line: line, Character: 0}
		before, after = p.indent+"//bhlint:ignore "+code+" ", "\n"
	case !p.hasComment:
		text, _ := lineOf(p.finding.Location.File, p.finding.Location.Line)
		at = lspPosition{Line: line, Character: len(utf16.Encode([]rune(text)))}
		before = " //bhlint:ignore " + code + " "
	default:
		return nil // the line above is taken and this line has a comment: no place for one
	}
	action := map[string]any{
		"title":       "Suppress " + code + " here, with a reason (//bhlint:ignore)",
		"kind":        "quickfix",
		"diagnostics": []any{p.diagnostic},
	}
	rng := lspRange{Start: at, End: at}
	if snippets {
		action["edit"] = map[string]any{"documentChanges": []any{map[string]any{
			"textDocument": map[string]any{"uri": uri, "version": nil},
			"edits": []any{map[string]any{
				"range":   rng,
				"snippet": map[string]any{"kind": "snippet", "value": snippetEscape(before) + "${1:reason}" + snippetEscape(after)},
			}},
		}}}
	} else {
		action["edit"] = map[string]any{"changes": map[string][]lspTextEdit{
			uri: {{Range: rng, NewText: before + after}},
		}}
	}
	return action
}

// snippetEscape escapes the characters that mean something in a snippet.
func snippetEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `$`, `\$`, `}`, `\}`).Replace(s)
}

// overlaps reports whether two ranges share a position, ends included: a
// cursor just after a diagnostic still gets its actions.
func overlaps(a, b lspRange) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

func before(a, b lspPosition) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}
