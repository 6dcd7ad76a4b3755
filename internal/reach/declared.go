package reach

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/config"
	"github.com/bhlint/bhlint/internal/directive"
	"github.com/bhlint/bhlint/internal/guard"
)

// declaredEntries are the package's functions that a //bhlint:lane
// directive, or the lanes .bhlint.yml declares for the package, make entry
// points of a lane, as sharedpool reads them (a directive wins).
func (c *checker) declaredEntries(cfg *config.Config) map[*ssa.Function]string {
	byObj := map[*types.Func]*ssa.Function{}
	for _, fn := range c.funcs {
		if obj, ok := fn.Object().(*types.Func); ok {
			byObj[obj] = fn
		}
	}
	out := map[*ssa.Function]string{}
	for _, f := range c.pass.Files {
		if isTestFile(c.pass, f.Pos()) {
			continue
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			obj, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			fn := byObj[obj]
			if fn == nil {
				continue
			}
			for _, d := range directive.InGroup(fd.Doc, directive.Lane) {
				if len(d.Args) > 0 {
					out[fn] = d.Args[0]
				}
			}
			if _, set := out[fn]; set || cfg == nil {
				continue
			}
			for _, l := range cfg.Lanes.Declare {
				if l.Package == c.pass.Pkg.Path() && config.DeclaresEntry(fd, l.Func) {
					out[fn] = l.Lane
					break
				}
			}
		}
	}
	return out
}

// config is the project's .bhlint.yml as guard reads it, nil when it does
// not load (the analyzers report that).
func (c *checker) config() *config.Config {
	cfg, err := guard.Config(c.pass)
	if err != nil {
		return nil
	}
	return cfg
}
