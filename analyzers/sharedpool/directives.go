package sharedpool

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/config"
	"github.com/bhlint/bhlint/internal/directive"
	"github.com/bhlint/bhlint/internal/guard"
	"github.com/bhlint/bhlint/internal/lanes"
)

// declared is what this package's //bhlint:lane directives say.
type declared struct {
	entries map[*types.Func]string // entry point → lane
	owned   map[*types.Var]string  // resource (var or field) → lane
}

// readDirectives reads the lane directives of the package's non-test files,
// reports those attached to no entry point or resource (the directives
// analyzer reports the ones that do not parse) and exports Owned facts for
// laned resources.
func (c *checker) readDirectives() declared {
	d := declared{entries: map[*types.Func]string{}, owned: map[*types.Var]string{}}
	for _, f := range c.pass.Files {
		if c.isTestFile(f.Pos()) || !mentionsLane(f) {
			continue
		}
		attached := map[*ast.Comment]bool{}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				for _, cm := range laneComments(decl.Doc) {
					attached[cm.comment] = true
					if obj, ok := c.pass.TypesInfo.Defs[decl.Name].(*types.Func); ok && cm.lane != "" {
						d.entries[obj] = cm.lane
					}
				}
			case *ast.GenDecl:
				c.readGenDecl(decl, &d, attached)
			}
		}
		for _, group := range f.Comments {
			for _, cm := range group.List {
				dir, ok, err := directive.Parse(cm)
				if !ok || dir.Verb != directive.Lane {
					continue
				}
				if err != nil {
					continue // a missing or bad name: the directives analyzer reports it
				}
				if !attached[cm] {
					c.pass.Report(analysisDiag(cm.Pos(), fmt.Sprintf(
						"%s: //bhlint:lane %s is attached to nothing bhlint reads; put it in the doc comment of a func or method (an entry point of the lane), or on a package-level var or struct field that holds a pool or client (a resource of the lane)",
						Code, dir.Args[0])))
				}
			}
		}
	}
	c.readConfiguredLanes(&d)
	for v, lane := range d.owned {
		c.pass.ExportObjectFact(v, &lanes.Owned{Lane: lane})
	}
	return d
}

// readConfiguredLanes applies the lanes .bhlint.yml declares by import path,
// for code that cannot carry directives (generated servers, vendored code):
// the named function, or every exported function and method of the package,
// is an entry point of the lane. A directive in the code wins.
func (c *checker) readConfiguredLanes(d *declared) {
	cfg, err := guard.Config(c.pass)
	if err != nil {
		return // guard.Wrap has already failed the pass with this error
	}
	for _, decl := range cfg.Lanes.Declare {
		if decl.Package != c.pass.Pkg.Path() {
			continue
		}
		for _, f := range c.pass.Files {
			if c.isTestFile(f.Pos()) {
				continue
			}
			for _, fd := range f.Decls {
				fd, ok := fd.(*ast.FuncDecl)
				if !ok || !config.DeclaresEntry(fd, decl.Func) {
					continue
				}
				if obj, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					if _, set := d.entries[obj]; !set {
						d.entries[obj] = decl.Lane
					}
				}
			}
		}
	}
}

func mentionsLane(f *ast.File) bool {
	for _, g := range f.Comments {
		for _, cm := range g.List {
			if strings.HasPrefix(cm.Text, "//bhlint:lane") {
				return true
			}
		}
	}
	return false
}

type laneComment struct {
	comment *ast.Comment
	lane    string // "" when malformed (reported separately)
}

// laneComments returns the //bhlint:lane comments of a group, well-formed
// or not.
func laneComments(g *ast.CommentGroup) []laneComment {
	if g == nil {
		return nil
	}
	var out []laneComment
	for _, cm := range g.List {
		dir, ok, err := directive.Parse(cm)
		if !ok || dir.Verb != directive.Lane {
			continue
		}
		lc := laneComment{comment: cm}
		if err == nil {
			lc.lane = dir.Args[0]
		}
		out = append(out, lc)
	}
	return out
}

// readGenDecl handles package-level vars and the fields of struct types
// declared at package level (in type or var declarations).
func (c *checker) readGenDecl(decl *ast.GenDecl, d *declared, attached map[*ast.Comment]bool) {
	for _, spec := range decl.Specs {
		switch spec := spec.(type) {
		case *ast.ValueSpec:
			if decl.Tok != token.VAR {
				continue
			}
			groups := []*ast.CommentGroup{spec.Doc, spec.Comment}
			if len(decl.Specs) == 1 && decl.Doc != spec.Doc {
				groups = append(groups, decl.Doc)
			}
			for _, g := range groups {
				for _, cm := range laneComments(g) {
					attached[cm.comment] = true
					for _, name := range spec.Names {
						if v, ok := c.pass.TypesInfo.Defs[name].(*types.Var); ok {
							c.own(d, v, name.Name, cm)
						}
					}
				}
			}
			if spec.Type != nil {
				c.readFields(spec.Type, d, attached)
			}
		case *ast.TypeSpec:
			c.readFields(spec.Type, d, attached)
		}
	}
}

func (c *checker) readFields(expr ast.Expr, d *declared, attached map[*ast.Comment]bool) {
	ast.Inspect(expr, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok {
			return true
		}
		for _, field := range st.Fields.List {
			for _, g := range []*ast.CommentGroup{field.Doc, field.Comment} {
				for _, cm := range laneComments(g) {
					attached[cm.comment] = true
					for _, name := range field.Names {
						if v, ok := c.pass.TypesInfo.Defs[name].(*types.Var); ok {
							c.own(d, v, name.Name, cm)
						}
					}
				}
			}
		}
		return true
	})
}

// own assigns v to the directive's lane if v is a resource, and reports the
// directive otherwise.
func (c *checker) own(d *declared, v *types.Var, name string, cm laneComment) {
	if cm.lane == "" {
		return // malformed: reported with its parse error
	}
	if catalog.ResourceNoun(v.Type()) == "" {
		what := "variable"
		if v.IsField() {
			what = "field"
		}
		c.pass.Report(analysisDiag(cm.comment.Pos(), fmt.Sprintf(
			"%s: //bhlint:lane %s is on %s %s of type %s, which is not a pool or client; a lane owns resources such as *sql.DB, *sqlx.DB, *pgxpool.Pool, *http.Client or *http.Transport (put it on one of those, or in the doc comment of the func that is the lane's entry point)",
			Code, cm.lane, what, name, types.TypeString(v.Type(), types.RelativeTo(c.pass.Pkg)))))
		return
	}
	d.owned[v] = cm.lane
}
