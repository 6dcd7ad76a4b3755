package poolbudget

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/config"
)

// checkMain adds up, per declared database and dependency, the budgets of
// every pool func main creates, through the functions it calls, and
// reports at main's name when the fleet's total exceeds what the database
// or dependency allows.
func (c *checker) checkMain(cfg *config.Config, fd *ast.FuncDecl) {
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return
	}
	sum := c.summary(fn)
	if sum == nil {
		return
	}
	var pools []*Pool
	for i := range sum.Pools {
		p := &sum.Pools[i]
		if p.Budget.State == FromParam || p.Budget.State == FromDSN {
			p.Budget = Budget{State: Unknown} // main has no parameters to give it
		}
		pools = append(pools, p)
	}
	replicas := cfg.ReplicaCount()
	for _, name := range cfg.DatabaseNames() {
		var mine []*Pool
		for _, p := range pools {
			if !p.Outbound && databaseOf(cfg, p) == name {
				mine = append(mine, p)
			}
		}
		db := cfg.Databases[name]
		c.checkTarget(fd, target{
			noun: "connections", what: "database " + name, limits: "budget", allows: db.Allowed(),
			which: fmt.Sprintf("which allows %d (max-connections %d − reserved %d)", db.Allowed(), db.MaxConnections, db.Reserved),
		}, replicas, mine)
	}
	for _, name := range cfg.DependencyNames() {
		dep := cfg.Dependencies[name]
		var mine []*Pool
		for _, p := range pools {
			if p.Outbound && slices.Contains(dep.Lanes, p.Lane) {
				mine = append(mine, p)
			}
		}
		c.checkTarget(fd, target{
			noun: "concurrent calls", what: "dependency " + name, limits: "limits", allows: dep.Capacity,
			which: fmt.Sprintf("which can take %d", dep.Capacity),
		}, replicas, mine)
	}
}

// target is a database or dependency with what it allows.
type target struct {
	noun, what string
	limits     string // what the pools' maxima are called: "budget", "limits"
	allows     int
	which      string // "which allows 97 (max-connections 100 − reserved 3)"
}

func (c *checker) checkTarget(fd *ast.FuncDecl, t target, replicas int, pools []*Pool) {
	var counted, unbounded, unknown []*Pool
	total := 0
	for _, p := range pools {
		switch p.Budget.State {
		case Known, PgxDefault:
			counted = append(counted, p)
			total += p.Budget.N
		case Unbounded:
			unbounded = append(unbounded, p)
		default:
			unknown = append(unknown, p)
		}
	}
	perReplica := t.allows / replicas
	if len(unbounded) > 0 {
		c.report(fd, unbounded, "%s: %s no maximum, so %s may open as many %s to %s as their load asks for, %s; give every pool a maximum, together at most %d per replica",
			Code, hasNoMaximum(unbounded), replicaWord(replicas), t.noun, t.what, t.which, perReplica)
		return
	}
	if replicas*total <= t.allows {
		return
	}
	var terms []string
	for _, p := range counted {
		terms = append(terms, term(p))
	}
	msg := fmt.Sprintf("%s: %s × (%s) = %d %s to %s, %s; per replica %s must total at most %d",
		Code, replicaWord(replicas), strings.Join(terms, " + "), replicas*total, t.noun, t.what, t.which, t.limits, perReplica)
	if len(unknown) > 0 {
		msg += fmt.Sprintf(" (and %s, whose budget is not a constant, is not counted)", labels(unknown))
	}
	c.report(fd, counted, "%s", msg)
}

func (c *checker) report(fd *ast.FuncDecl, pools []*Pool, format string, args ...any) {
	d := analysis.Diagnostic{Pos: fd.Name.Pos(), End: fd.Name.End(), Message: fmt.Sprintf(format, args...)}
	for _, p := range pools {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: p.anchor, Message: related(p)})
	}
	c.pass.Report(d)
}

// related says, at a pool's creation or at the call that leads there,
// what the pool adds.
func related(p *Pool) string {
	what := fmt.Sprintf("%d connections", p.Budget.N)
	switch {
	case p.Outbound:
		what = fmt.Sprintf("%d concurrent calls per host", p.Budget.N)
	case p.Budget.State == Unbounded:
		what = "no maximum"
	case p.Budget.State == PgxDefault:
		what = fmt.Sprintf("pgxpool's default maximum, max(%d, NumCPU)", p.Budget.N)
	}
	if len(p.Via) == 0 {
		return fmt.Sprintf("%s: %s, created here by %s", p.Name, what, p.Kind)
	}
	return fmt.Sprintf("%s: %s, created by %s in %s at %s", p.Name, what, p.Kind, strings.Join(p.Via, " → "), p.Site)
}

// term is one pool's share of the sum: "20 ordersDB".
func term(p *Pool) string {
	if p.Budget.State == PgxDefault {
		return fmt.Sprintf("%d %s (pgxpool's default max(%d, NumCPU), assumed %d)", p.Budget.N, p.label(), p.Budget.N, p.Budget.N)
	}
	return fmt.Sprintf("%d %s", p.Budget.N, p.label())
}

func hasNoMaximum(pools []*Pool) string {
	if len(pools) == 1 {
		return labels(pools) + " has"
	}
	return labels(pools) + " have"
}

func labels(pools []*Pool) string {
	var names []string
	for _, p := range pools {
		names = append(names, p.label())
	}
	return strings.Join(names, ", ")
}

func replicaWord(n int) string {
	if n == 1 {
		return "1 replica"
	}
	return fmt.Sprintf("%d replicas", n)
}
