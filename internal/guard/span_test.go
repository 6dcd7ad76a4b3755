package guard_test

import (
	"go/token"
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/guard"
)

// spans reports, for each "// span: TEXT" comment, at the start of TEXT on
// the comment's line (at the comment itself when TEXT is not code), with
// a related position at the same place, and no End: guard must add it.
var spans = guard.Wrap(&analysis.Analyzer{
	Name: "spans",
	Doc:  "test analyzer that reports where span: comments say",
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			src, err := os.ReadFile(pass.Fset.File(f.Pos()).Name())
			if err != nil {
				return nil, err
			}
			tf := pass.Fset.File(f.Pos())
			for _, group := range f.Comments {
				for _, c := range group.List {
					want, ok := strings.CutPrefix(c.Text, "// span: ")
					if !ok {
						continue
					}
					lineStart := tf.Offset(tf.LineStart(tf.Line(c.Pos())))
					pos := c.Pos()
					if i := strings.Index(string(src[lineStart:tf.Offset(c.Pos())]), want); i >= 0 {
						pos = tf.Pos(lineStart + i)
					}
					pass.Report(analysis.Diagnostic{Pos: pos, Message: "ERR_SPAN: " + want,
						Related: []analysis.RelatedInformation{{Pos: pos, Message: "here"}}})
				}
			}
		}
		return nil, nil
	},
}, "ERR_SPAN")

// TestSpan: a diagnostic that gives only its start covers the syntax that
// starts there — the whole call or statement, the head of a node with a
// body — and one that starts in a comment keeps its zero width.
func TestSpan(t *testing.T) {
	graph, fset := analyze(t, "testdata/span", spans)
	n := 0
	for _, act := range graph.Roots {
		for _, d := range act.Diagnostics {
			n++
			want := strings.TrimPrefix(d.Message, "ERR_SPAN: ")
			if strings.HasPrefix(want, "(") {
				if d.End.IsValid() {
					t.Errorf("%s: End set to %s for a position in a comment, want NoPos", fset.Position(d.Pos), fset.Position(d.End))
				}
				continue
			}
			if got := covered(t, fset, d.Pos, d.End); got != want {
				t.Errorf("%s: the diagnostic covers %q, want %q", fset.Position(d.Pos), got, want)
			}
			if r := d.Related[0]; r.End != d.End {
				t.Errorf("%s: related position ends at %s, want %s as the diagnostic", fset.Position(r.Pos), fset.Position(r.End), fset.Position(d.End))
			}
		}
	}
	if n != 9 {
		t.Errorf("got %d diagnostics, want one per span: comment (9)", n)
	}
}

func covered(t *testing.T, fset *token.FileSet, pos, end token.Pos) string {
	t.Helper()
	if !end.IsValid() {
		return "(no end)"
	}
	src, err := os.ReadFile(fset.Position(pos).Filename)
	if err != nil {
		t.Fatal(err)
	}
	return string(src[fset.Position(pos).Offset:fset.Position(end).Offset])
}
