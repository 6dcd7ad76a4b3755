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
// or dependency allows. It returns the arithmetic of each, exceeded or not.
func (c *checker) checkMain(cfg *config.Config, fd *ast.FuncDecl) []Row {
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return nil
	}
	sum := c.summary(fn)
	if sum == nil || sum.Truncated {
		return nil // no count to trust
	}
	var pools []*Pool
	for i := range sum.Pools {
		p := &sum.Pools[i]
		if p.Budget.State == FromField {
			p.Budget = c.fieldBudget(p.Budget.Field)
		}
		if p.Budget.State == FromParam || p.Budget.State == FromDSN {
			p.Budget = Budget{State: Unknown} // main has no parameters to give it
		}
		pools = append(pools, p)
	}
	pools = oneCommand(pools)
	var rows []Row
	add := func(t target, mine []*Pool) {
		if len(mine) == 0 {
			return
		}
		row := c.rowOf(t, cfg.ReplicaCount(), mine)
		if row.Exceeds() {
			c.report(fd, row)
		}
		rows = append(rows, row.Row)
	}
	for _, name := range cfg.DatabaseNames() {
		var mine []*Pool
		for _, p := range pools {
			if !p.Outbound && databaseOf(cfg, p) == name {
				mine = append(mine, p)
			}
		}
		db := cfg.Databases[name]
		add(target{
			noun: "connections", what: "database " + name, limits: "budget", allows: db.Allowed(),
			which: fmt.Sprintf("which allows %d (max-connections %d − reserved %d)", db.Allowed(), db.MaxConnections, db.Reserved),
		}, mine)
	}
	for _, name := range cfg.DependencyNames() {
		dep := cfg.Dependencies[name]
		var mine []*Pool
		for _, lane := range dep.Lanes {
			mine = append(mine, outboundOf(pools, lane)...)
		}
		add(target{
			noun: "concurrent calls", what: "dependency " + name, limits: "limits", allows: dep.Capacity,
			which: fmt.Sprintf("which can take %d", dep.Capacity),
		}, mine)
	}
	return rows
}

// oneCommand drops the pools of the commands handed to a framework when
// there are several: the command line runs one of them (serve, or
// migrate, or reset-password), and which one the replicas run is not in
// the code. With one command, its pools are the program's.
func oneCommand(pools []*Pool) []*Pool {
	commands := map[string]bool{}
	for _, p := range pools {
		if p.Command != "" {
			commands[p.Command] = true
		}
	}
	if len(commands) <= 1 {
		return pools
	}
	return slices.DeleteFunc(pools, func(p *Pool) bool { return p.Command != "" })
}

// outboundOf are the limits of a lane's calls out: its clients' (lanehttp),
// or, for a lane with none, its executors' MaxConcurrent.
func outboundOf(pools []*Pool, lane string) []*Pool {
	var clients, executors []*Pool
	for _, p := range pools {
		switch {
		case !p.Outbound || p.Lane != lane:
		case p.Executor:
			executors = append(executors, p)
		default:
			clients = append(clients, p)
		}
	}
	if len(clients) > 0 {
		return clients
	}
	return executors
}

// target is a database or dependency with what it allows.
type target struct {
	noun, what string
	limits     string // what the pools' maxima are called: "budget", "limits"
	allows     int
	which      string // "which allows 97 (max-connections 100 − reserved 3)"
}

// Row is the arithmetic of one main package's pools against one declared
// database or dependency.
type Row struct {
	Command  string // the main package's import path
	Target   string // "database main", "dependency tax-api"
	Replicas int
	// Terms are the counted pools' shares: "20 ordersDB".
	Terms []string
	// Total is Replicas × the counted pools' sum; Allows what the target
	// takes, and Which says so in words.
	Total, Allows int
	Which         string
	// PerReplica is what the pools of one replica may add up to.
	PerReplica int
	Noun       string // "connections", "concurrent calls"
	// Unbounded are the pools with no maximum; Uncounted, those whose
	// budget is not a constant.
	Unbounded, Uncounted []string
}

// Exceeds reports whether the fleet may open more than the target allows.
func (r Row) Exceeds() bool { return len(r.Unbounded) > 0 || r.Total > r.Allows }

// Arithmetic is the sum in words: "30 replicas × (20 ordersDB + 20
// reportsDB) = 1200 connections to database main, which allows 97
// (max-connections 100 − reserved 3)".
func (r Row) Arithmetic() string {
	if len(r.Unbounded) > 0 {
		verb := " has"
		if len(r.Unbounded) > 1 {
			verb = " have"
		}
		return fmt.Sprintf("%s%s no maximum, so %s may open as many %s to %s as their load asks for, %s",
			strings.Join(r.Unbounded, ", "), verb, replicaWord(r.Replicas), r.Noun, r.Target, r.Which)
	}
	return fmt.Sprintf("%s × (%s) = %d %s to %s, %s", replicaWord(r.Replicas), strings.Join(r.Terms, " + "), r.Total, r.Noun, r.Target, r.Which)
}

// row is a Row with the pools behind it, for the related positions.
type row struct {
	Row
	limits  string
	counted []*Pool
	worst   []*Pool // the unbounded ones
}

func (c *checker) rowOf(t target, replicas int, pools []*Pool) row {
	r := row{Row: Row{Command: c.pass.Pkg.Path(), Target: t.what, Replicas: replicas, Allows: t.allows, Which: t.which,
		PerReplica: t.allows / replicas, Noun: t.noun}, limits: t.limits}
	sum := 0
	for _, p := range pools {
		switch p.Budget.State {
		case Known, PgxDefault:
			r.counted = append(r.counted, p)
			r.Terms = append(r.Terms, term(p))
			sum += p.Budget.N
		case Unbounded:
			r.worst = append(r.worst, p)
			r.Unbounded = append(r.Unbounded, p.label())
		default:
			r.Uncounted = append(r.Uncounted, p.label())
		}
	}
	r.Total = replicas * sum
	return r
}

func (c *checker) report(fd *ast.FuncDecl, r row) {
	msg := Code + ": " + r.Arithmetic()
	pools := r.counted
	if len(r.Unbounded) > 0 {
		msg += fmt.Sprintf("; give every pool a maximum, together at most %d per replica", r.PerReplica)
		pools = r.worst
	} else {
		msg += fmt.Sprintf("; per replica %s must total at most %d", r.limits, r.PerReplica)
		if len(r.Uncounted) > 0 {
			msg += fmt.Sprintf(" (and %s, whose budget is not a constant, is not counted)", strings.Join(r.Uncounted, ", "))
		}
	}
	d := analysis.Diagnostic{Pos: fd.Name.Pos(), End: fd.Name.End(), Message: msg}
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
	case p.Executor:
		what = fmt.Sprintf("%d concurrent calls (lane %s's MaxConcurrent)", p.Budget.N, p.Lane)
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

func replicaWord(n int) string {
	if n == 1 {
		return "1 replica"
	}
	return fmt.Sprintf("%d replicas", n)
}
