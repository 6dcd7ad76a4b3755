package fairclaim

import (
	"strings"

	"github.com/bhlint/bhlint/internal/catalog"
)

// fifoClaim is a statement that takes jobs with FOR UPDATE SKIP LOCKED in
// order of age only, and does not choose by tenant.
type fifoClaim struct {
	// cas is the compare-and-set update that takes the row a read chose,
	// for a claim without SKIP LOCKED; nil for a locking claim.
	cas   *casWrite
	name  string   // sqlc's name for the query, if any
	table string   // the table locked, lower case, without a schema; "" if not a plain table
	order []string // the ORDER BY columns
	// optional names a condition variable of a builder chain left out
	// because it stays empty on some path.
	optional string
	// tenant is the tenant column the statement itself shows, and seen says
	// where ("its RETURNING list"); both "" when the statement shows none
	// and only the table's schema can tell.
	tenant, seen string
}

// fifoClaims returns the first-in-first-out claims among the statements of
// a SQL text.
func fifoClaims(text string) []fifoClaim {
	if !mayContainClaim(text) {
		return nil
	}
	sql := tokenize(text)
	var out []fifoClaim
	for _, st := range sql.statements() {
		if c, ok := readClaim(st); ok {
			c.name = sql.name
			out = append(out, c)
		}
	}
	return out
}

// claimSelect is the locking SELECT of a statement, by token index: the
// SELECT word, its FROM, ORDER BY and lock, and the end of its list of
// conditions (where ORDER BY, LIMIT or the lock starts).
type claimSelect struct {
	depth                    int
	sel, from, order, filter int // filter: the end of FROM … WHERE
	lock                     int
}

func readClaim(st []lexeme) (fifoClaim, bool) {
	cs, ok := findClaimSelect(st)
	if !ok {
		return fifoClaim{}, false
	}
	return ageOrdered(st, cs)
}

// ageOrdered reads the SELECT cs of st as a choice of the oldest rows: its
// ORDER BY only age, id and priority, taking no running rows, written
// whole, and bound to no tenant.
func ageOrdered(st []lexeme, cs claimSelect) (fifoClaim, bool) {
	if cs.order < 0 {
		return fifoClaim{}, false // no ORDER BY: the order is the table's, not claimed to be FIFO
	}
	order, ok := ageOrder(st, cs)
	if !ok || takesRunning(st, cs) || filledInLater(st, cs) {
		return fifoClaim{}, false
	}
	c := fifoClaim{order: order, table: tableAt(st, cs)}
	if !tenantEvidence(st, cs, &c) {
		return fifoClaim{}, false
	}
	return c, true
}

// findClaimSelect finds FOR [NO KEY] UPDATE [OF …] SKIP LOCKED and the
// SELECT it locks the rows of.
func findClaimSelect(st []lexeme) (claimSelect, bool) {
	for i := range st {
		if !is(st, i, "for") {
			continue
		}
		j := i + 1
		if is(st, j, "no") && is(st, j+1, "key") {
			j += 2
		}
		if !is(st, j, "update") {
			continue
		}
		j++
		if is(st, j, "of") {
			for j++; j < len(st) && (st[j].kind == word || st[j].text == "," || st[j].text == ".") && !is(st, j, "skip"); j++ {
			}
		}
		if is(st, j, "skip") && is(st, j+1, "locked") {
			return scopeOf(st, i)
		}
	}
	return claimSelect{}, false
}

// scopeOf finds the clauses of the SELECT whose lock starts at st[lock]:
// the last SELECT at the lock's depth before it, within the same
// parentheses.
func scopeOf(st []lexeme, lock int) (claimSelect, bool) {
	d := st[lock].depth
	cs := claimSelect{depth: d, sel: -1, from: -1, order: -1, filter: lock, lock: lock}
	start := lock
	for start > 0 && st[start-1].depth >= d {
		start--
	}
	for i := lock - 1; i >= start; i-- {
		if st[i].depth == d && is(st, i, "select") {
			cs.sel = i
			break
		}
	}
	if cs.sel < 0 {
		return cs, false
	}
	return clausesOf(st, cs)
}

// clausesOf finds the FROM, ORDER BY and the end of the conditions of the
// SELECT at st[cs.sel], up to cs.lock.
func clausesOf(st []lexeme, cs claimSelect) (claimSelect, bool) {
	d, lock := cs.depth, cs.lock
	for i := cs.sel + 1; i < lock; i++ {
		if st[i].depth != d {
			continue
		}
		switch {
		case is(st, i, "from") && cs.from < 0:
			cs.from = i
		case is(st, i, "order") && is(st, i+1, "by"):
			cs.order = i
			cs.filter = min(cs.filter, i)
		case is(st, i, "limit") || is(st, i, "offset") || is(st, i, "fetch"):
			cs.filter = min(cs.filter, i)
		}
	}
	return cs, cs.from >= 0
}

// filledInLater reports whether the claim's FROM … WHERE holds a hole the
// program fills in (fmt's %s, a template's {{.Where}}): a condition
// written at run time may bind the tenant. A hole right after FROM is the
// table's name (FROM %s), which binds nothing.
func filledInLater(st []lexeme, cs claimSelect) bool {
	for i := cs.from + 2; i < cs.filter; i++ {
		if st[i].kind == punct && (st[i].text == "%" || st[i].text == "{") {
			return true
		}
	}
	return false
}

// takesRunning reports whether the claim's WHERE requires a running state
// (state = 'running'), with no OR beside it: the statement takes back
// running jobs (a reaper of expired leases), it does not claim queued ones.
func takesRunning(st []lexeme, cs claimSelect) bool {
	where := -1
	for i := cs.from; i < cs.filter; i++ {
		if st[i].depth == cs.depth && is(st, i, "or") {
			return false
		}
		if st[i].depth == cs.depth && is(st, i, "where") {
			where = i
		}
	}
	if where < 0 {
		return false
	}
	for i := where + 1; i+1 < cs.filter; i++ {
		if st[i].depth != cs.depth || st[i].text != "=" {
			continue
		}
		v := st[i+1]
		if (v.kind == str || v.kind == word) && catalog.RunningStates[strings.ToLower(strings.Trim(v.text, "'"))] {
			return true
		}
	}
	return false
}

// ageOrder returns the ORDER BY columns when each is a plain column of age,
// id or priority and at least one is age or id. Anything else — an
// expression, a subquery (a tenant's running count), another column —
// chooses by something other than arrival, and is not reported.
func ageOrder(st []lexeme, cs claimSelect) ([]string, bool) {
	end := cs.lock
	for i := cs.order + 2; i < cs.lock; i++ {
		if st[i].depth == cs.depth && (is(st, i, "limit") || is(st, i, "offset") || is(st, i, "fetch")) {
			end = i
			break
		}
	}
	var cols []string
	age := false
	for _, item := range splitItems(st[cs.order+2:end], cs.depth) {
		col, ok := plainColumn(item)
		if !ok {
			return nil, false
		}
		switch {
		case catalog.AgeColumns[col]:
			age = true
		case catalog.PriorityColumns[col]:
		default:
			return nil, false
		}
		cols = append(cols, col)
	}
	return cols, age
}

// splitItems splits a list at its commas at depth d.
func splitItems(toks []lexeme, d int) [][]lexeme {
	var out [][]lexeme
	start := 0
	for i, t := range toks {
		if t.text == "," && t.depth == d {
			out = append(out, toks[start:i])
			start = i + 1
		}
	}
	return append(out, toks[start:])
}

// plainColumn reads "col", "alias.col", with ASC, DESC, NULLS FIRST/LAST.
func plainColumn(item []lexeme) (string, bool) {
	n := len(item)
	for n > 0 && item[n-1].kind == word {
		switch item[n-1].text {
		case "asc", "desc", "nulls", "first", "last":
			n--
			continue
		}
		break
	}
	item = item[:n]
	switch {
	case len(item) == 1 && item[0].kind == word:
		return item[0].text, true
	case len(item) == 3 && item[0].kind == word && item[1].text == "." && item[2].kind == word:
		return item[2].text, true
	}
	return "", false
}

// tableAt is the table after the claim's FROM, without a schema.
func tableAt(st []lexeme, cs claimSelect) string {
	i := cs.from + 1
	if is(st, i, "only") {
		i++
	}
	if i >= len(st) || st[i].kind != word {
		return ""
	}
	if i+2 < len(st) && st[i+1].text == "." && st[i+2].kind == word {
		return st[i+2].text
	}
	return st[i].text
}

// tenantEvidence decides what the statement says about tenants. It returns
// false when the statement chooses by tenant: a tenant column bound to one
// value anywhere (tenant_id = $1: FIFO within one tenant), or used in the
// claim's FROM or WHERE in any other way (a join on per-tenant slots, a cap
// on running jobs per tenant). Otherwise it records in c a tenant column
// the statement shows — selected, returned, or matched against a list of
// tenants — if there is one.
func tenantEvidence(st []lexeme, cs claimSelect, c *fifoClaim) bool {
	returning := -1
	for i, t := range st {
		if t.depth == 0 && is(st, i, "returning") {
			returning = i
		}
	}
	for i, t := range st {
		if t.kind != word || !isTenantWord(t.text) || isAlias(st, i) {
			continue
		}
		use := tenantUse(st, i)
		if use == bound {
			return false
		}
		inFilter := i > cs.from && i < cs.filter
		if inFilter && use != listed {
			return false
		}
		if c.tenant != "" && (catalog.OwnerColumns[t.text] || catalog.TenantColumns[c.tenant]) {
			continue // a tenant column is reported rather than an owner
		}
		switch {
		case inFilter:
			c.tenant, c.seen = t.text, "its WHERE, matched against a list of tenants"
		case returning >= 0 && i > returning:
			c.tenant, c.seen = t.text, "its RETURNING list"
		case i > cs.sel && i < cs.from:
			c.tenant, c.seen = t.text, "the claim's SELECT list"
		default:
			c.tenant, c.seen = t.text, "the statement"
		}
	}
	return true
}

// isAlias reports whether the word at st[i] names a table, not a column:
// it qualifies a column (org.id), follows AS, or follows the table after
// FROM or JOIN (FROM jobs org).
func isAlias(st []lexeme, i int) bool {
	if i+1 < len(st) && st[i+1].text == "." || is(st, i-1, "as") {
		return true
	}
	return i >= 2 && st[i-1].kind == word && (is(st, i-2, "from") || is(st, i-2, "join"))
}

// isTenantWord reports whether a column names a tenant, or an owner that
// may stand for one: bound to one value, either scopes the claim.
func isTenantWord(col string) bool { return catalog.TenantColumns[col] || catalog.OwnerColumns[col] }

type tenantUseKind int

const (
	mentioned tenantUseKind = iota // in a list, or compared to something else
	bound                          // = one value
	listed                         // = ANY(…) or IN (…) of values
)

// tenantUse tells how the tenant column at st[i] is used.
func tenantUse(st []lexeme, i int) tenantUseKind {
	if i >= 2 && st[i-1].text == "=" && isValue(st[i-2]) {
		return bound
	}
	j := i + 1
	if j < len(st) && st[j].text == "=" {
		if j+1 < len(st) && isValue(st[j+1]) {
			return bound
		}
		if is(st, j+1, "any") && valuesOnly(st, j+2) {
			return listed
		}
	}
	if is(st, j, "in") && valuesOnly(st, j+1) {
		return listed
	}
	return mentioned
}

func isValue(t lexeme) bool { return t.kind == param || t.kind == str || t.kind == number }

// valuesOnly reports whether st[open] opens a parenthesised list of
// parameters and literals (with casts), such as ($1) or ($1::text[]).
func valuesOnly(st []lexeme, open int) bool {
	if open >= len(st) || st[open].text != "(" {
		return false
	}
	d := st[open].depth
	for k := open + 1; k < len(st); k++ {
		t := st[k]
		if t.text == ")" && t.depth == d {
			return k > open+1
		}
		if t.kind == word && k > 0 && st[k-1].text == "::" || isValue(t) || t.text == "," || t.text == "::" || t.text == "[" || t.text == "]" {
			continue
		}
		return false
	}
	return false
}

// describeOrder prints the ORDER BY columns for a message.
func describeOrder(cols []string) string { return strings.Join(cols, ", ") }
