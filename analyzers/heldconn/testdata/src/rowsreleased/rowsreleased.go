// Package rowsreleased hands rows and single rows to helpers that release
// them before the next statement: a deferred Close in the helper, a Scan
// through an interface.
package rowsreleased

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"

	"rowparse"
)

// Scannable is what a *sql.Row and a *sql.Rows both are.
type Scannable interface {
	Scan(dest ...any) error
}

type record struct{ id int }

// parseAll drains rows and closes them before it returns.
func parseAll(rows *sql.Rows) ([]record, error) { // want parseAll:"releasesParam\\(\\[0\\]\\)" parseAll:`endsHanded\(open rows\)`
	defer rows.Close()
	var out []record
	for rows.Next() {
		var r record
		if err := rows.Scan(&r.id); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// parseOne scans one row through the interface.
func parseOne(s Scannable) (record, error) { // want parseOne:"releasesParam.*Scan"
	var r record
	err := s.Scan(&r.id)
	return r, err
}

// scanAll reads rows to their end, whose last Next closes them; a failed
// Scan returns its error, on which the caller returns too.
func scanAll(rows *sql.Rows) ([]record, error) { // want scanAll:"releasesParam\\(\\[0\\]\\)" scanAll:`endsHanded\(open rows\)`
	var out []record
	for rows.Next() {
		var r record
		if err := rows.Scan(&r.id); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// firstOnly returns with the first row, and the others still open: it
// releases nothing (its error may be nil).
func firstOnly(rows *sql.Rows) (record, error) { // want firstOnly:`endsHanded\(open rows\)`
	var r record
	for rows.Next() {
		err := rows.Scan(&r.id)
		return r, err
	}
	return r, nil
}

// ---- positives ----

// The rows firstOnly left open hold their connection during the count.
func countAfterFirst(ctx context.Context, db *sql.DB) (int, error) { // want countAfterFirst:`queriesParam\(\[1\]\)`
	rows, err := db.QueryContext(ctx, "SELECT id FROM t")
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	if _, err := firstOnly(rows); err != nil {
		return 0, err
	}
	var n int
	err = db.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n) // want `open rows from \(\*sql.DB\).QueryContext is still held during \(\*sql.DB\).QueryRowContext`
	return n, err
}

// A row not scanned yet holds its connection.
func rowHeldDuringExec(ctx context.Context, db *sql.DB) error { // want rowHeldDuringExec:`queriesParam\(\[1\]\)`
	row := db.QueryRowContext(ctx, "SELECT 1")
	if _, err := db.ExecContext(ctx, "UPDATE t SET n = 0"); err != nil { // want `row from \(\*sql.DB\).QueryRowContext is still held during \(\*sql.DB\).ExecContext`
		return err
	}
	var n int
	return row.Scan(&n)
}

// Scan through the interface reads one row of *sql.Rows; it closes
// nothing.
func rowsScannedNotClosed(ctx context.Context, db *sql.DB) error { // want rowsScannedNotClosed:`queriesParam\(\[1\]\)`
	rows, err := db.QueryContext(ctx, "SELECT 1")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if _, err := parseOne(rows); err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, "UPDATE t SET n = 0"); err != nil { // want `open rows from \(\*sql.DB\).QueryContext is still held during \(\*sql.DB\).ExecContext`
			return err
		}
	}
	return rows.Err()
}

// ---- traps ----

// Trap: parseAll closes the first page's rows before the second query
// (nakama's leaderboard pages).
func pagesReleasedByHelper(ctx context.Context, db *sql.DB) error { // want pagesReleasedByHelper:`queriesParam\(\[1\]\)`
	first, err := db.QueryContext(ctx, "SELECT 1")
	if err != nil {
		return err
	}
	if _, err := parseAll(first); err != nil {
		return err
	}
	second, err := db.QueryContext(ctx, "SELECT 2")
	if err != nil {
		return err
	}
	_, err = parseAll(second)
	return err
}

// Trap: each row is scanned, through the interface, before the next
// statement (nakama's tournament reset).
func rowsScannedThroughInterface(ctx context.Context, db *sql.DB, ids []int) error { // want rowsScannedThroughInterface:`queriesParam\(\[1\]\)`
	for _, id := range ids {
		row := db.QueryRowContext(ctx, "SELECT 1 WHERE id = $1", id)
		if _, err := parseOne(row); err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, "UPDATE t SET n = 0 WHERE id = $1", id); err != nil {
			return err
		}
	}
	return nil
}

// Trap: the same, through another package's scanner (a fact).
func rowsScannedInOtherPackage(ctx context.Context, db *sql.DB, ids []int) error { // want rowsScannedInOtherPackage:`queriesParam\(\[1\]\)`
	for _, id := range ids {
		if _, err := rowparse.One(db.QueryRowContext(ctx, "SELECT 1 WHERE id = $1", id)); err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, "UPDATE t SET n = 0 WHERE id = $1", id); err != nil {
			return err
		}
	}
	return nil
}

// Trap: scanAll read the page to its end, so the count query that follows
// takes the connection the page gave back (convoy's subscription pages).
func countAfterDrainedPage(ctx context.Context, db *sql.DB) ([]record, int, error) { // want countAfterDrainedPage:`queriesParam\(\[1\]\)`
	rows, err := db.QueryContext(ctx, "SELECT id FROM t LIMIT 10")
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	page, err := scanAll(rows)
	if err != nil {
		return nil, 0, err
	}
	var n int
	err = db.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n)
	return page, n, err
}

// scanAllx is scanAll over sqlx's rows, whose Next is the embedded
// *sql.Rows'.
func scanAllx(rows *sqlx.Rows) ([]record, error) { // want scanAllx:"releasesParam\\(\\[0\\]\\)" scanAllx:`endsHanded\(open rows\)`
	var out []record
	for rows.Next() {
		var r record
		if err := rows.StructScan(&r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Trap: the same page read through sqlx.
func countAfterDrainedPagex(ctx context.Context, db *sqlx.DB) ([]record, int, error) { // want countAfterDrainedPagex:`queriesParam\(\[1\]\)`
	rows, err := db.QueryxContext(ctx, "SELECT id FROM t LIMIT 10")
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	page, err := scanAllx(rows)
	if err != nil {
		return nil, 0, err
	}
	var n int
	err = db.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n)
	return page, n, err
}
