// Package schemasetup: waits in functions that set up the schema run // want package:"limitsPools" package:"noContextWaitsReported\\(5\\)"
// before the service serves, and queue behind nothing (shape 4 is silent);
// the same waits elsewhere are reported.
package schemasetup

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"sort"

	"github.com/golang-migrate/migrate/v4"
)

const eventsSchema = `
-- the events of every room
CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY, body TEXT);
`

// createEventsTable makes the table and checks a column for a migration,
// as dendrite's table constructors do: schema set-up, silent.
func createEventsTable(db *sql.DB) error { // want createEventsTable:"waitsOnNetwork"
	if _, err := db.Exec(eventsSchema); err != nil {
		return err
	}
	var name string
	return db.QueryRowContext(context.Background(), "SELECT name FROM pragma_table_info('events')").Scan(&name)
}

// migrateUp runs golang-migrate, as coder's migrations do: silent.
func migrateUp(db *sql.DB, dsn string) error { // want migrateUp:"waitsOnNetwork"
	conn, err := db.Conn(context.Background())
	if err != nil {
		return err
	}
	defer conn.Close()
	m, err := migrate.New("file://migrations", dsn)
	if err != nil {
		return err
	}
	return m.Up()
}

var migrationFS embed.FS

type Store struct{ db *sql.DB }

// Migrate applies the SQL scripts embedded in the binary, as memos does:
// silent, though it begins its transaction without the context it has.
func (s *Store) Migrate(ctx context.Context) error { // want Migrate:"ignoresContext" Migrate:"waitsOnNetwork"
	files, err := fs.Glob(migrationFS, fmt.Sprintf("%s/*.sql", "migrations"))
	if err != nil {
		return err
	}
	sort.Strings(files)
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, f := range files {
		script, err := migrationFS.ReadFile(f)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, string(script)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// ---- still reported ----

// The routes: a request reaches report and page.
func (s *Store) Routes(mux *http.ServeMux) { // want Routes:"waitsOnNetwork"
	mux.HandleFunc("/report", func(w http.ResponseWriter, r *http.Request) { s.report(r.Context()) })
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) { s.page(r.Context()) })
	mux.HandleFunc("/refresh", func(w http.ResponseWriter, r *http.Request) { s.refresh() })
	mux.HandleFunc("/reports", func(w http.ResponseWriter, r *http.Request) { s.runReports() })
}

// report builds a temporary table for one request's report: a query's
// scratch, not the schema.
func (s *Store) report(ctx context.Context) error { // want report:"ignoresContext" report:"waitsOnNetwork" report:"forwardsSlotWait" report:`waitsNoContext\(\(\*sql.DB\).Exec in \(Store\).report\)`
	if _, err := s.db.ExecContext(ctx, "CREATE TEMPORARY TABLE totals AS SELECT 1"); err != nil {
		return err
	}
	_, err := s.db.Exec("SELECT * FROM totals") // want `wait with no deadline: \(\*sql.DB\).Exec waits for a pool slot with no context, though \(Store\).report was handed one \(ctx\), and a request reaches it`
	return err
}

var templatesFS embed.FS

// page reads a template from the embedded files, and no SQL from them.
func (s *Store) page(ctx context.Context) ([]byte, error) { // want page:"ignoresContext" page:"waitsOnNetwork" page:`waitsNoContext\(\(\*sql.DB\).QueryRow in \(Store\).page\)`
	tmpl, err := templatesFS.ReadFile("page.html")
	if err != nil {
		return nil, err
	}
	row := s.db.QueryRow("SELECT title FROM pages") // want `wait with no deadline: \(\*sql.DB\).QueryRow waits for a pool slot with no context`
	var title string
	return append(tmpl, title...), row.Scan(&title)
}

// refresh selects with a context that has no deadline.
func (s *Store) refresh() error { // want refresh:"waitsOnNetwork" refresh:"waitsNoContext"
	_, err := s.db.ExecContext(context.Background(), "UPDATE counters SET n = n + 1") // want `wait with no deadline: \(\*sql.DB\).ExecContext waits for a slot with a context from context.Background\(\)`
	return err
}

// ---- a driver's start-up: the schema from a list of statements ----

var schema = []string{
	`CREATE TABLE IF NOT EXISTS kv (name TEXT PRIMARY KEY, value BLOB)`,
	`CREATE INDEX IF NOT EXISTS kv_name ON kv (name)`,
}

var reports = []string{
	`SELECT count(*) FROM kv`,
	`SELECT max(name) FROM kv`,
}

// createTables runs each statement of the schema list: schema set-up,
// silent, though its loop's statement is no constant.
func createTables(db *sql.DB) error { // want createTables:"waitsOnNetwork"
	var exists bool
	_ = db.QueryRowContext(context.Background(), "SELECT 1 FROM kv LIMIT 1").Scan(&exists)
	for _, stmt := range schema {
		if _, err := db.Exec(stmt); err != nil {
			return err
		}
	}
	return nil
}

// copyOldRows waits on the caller's context: a forwarder.
func (s *Store) copyOldRows(ctx context.Context) { // want copyOldRows:"waitsOnNetwork" copyOldRows:"forwardsSlotWait"
	s.db.ExecContext(ctx, "INSERT INTO kv SELECT name, value FROM old_kv")
}

// OpenStore opens the pool, creates the tables and copies the old rows, as
// a driver's New does before anything serves: it sets up the schema
// through createTables, and its wait is silent.
func OpenStore(dsn string) (*Store, error) { // want OpenStore:"waitsOnNetwork"
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(10)
	if err := createTables(db); err != nil {
		return nil, err
	}
	s := &Store{db: db}
	s.copyOldRows(context.Background())
	return s, nil
}

// runReports loops over a list of queries, none of which changes the
// schema: its waits are reported.
func (s *Store) runReports() { // want runReports:"waitsOnNetwork" runReports:"waitsNoContext"
	for _, q := range reports {
		s.db.ExecContext(context.Background(), q) // want `wait with no deadline: \(\*sql.DB\).ExecContext waits for a slot with a context from context.Background\(\)`
	}
	s.copyOldRows(context.Background()) // want `wait with no deadline: \(\*schemasetup.Store\).copyOldRows → \(\*sql.DB\).ExecContext waits for a slot with a context from context.Background\(\)`
}

// A schema kept in a package variable rather than a constant.
var auditSchema = `
-- the audit trail
CREATE TABLE IF NOT EXISTS audit (id INTEGER PRIMARY KEY, body TEXT);
`

// NewAuditTable creates its table from the variable and checks a column
// on context.Background(): schema set-up, silent.
func NewAuditTable(db *sql.DB) error { // want NewAuditTable:"waitsOnNetwork"
	if _, err := db.Exec(auditSchema); err != nil {
		return err
	}
	var name string
	return db.QueryRowContext(context.Background(), "SELECT name FROM pragma_table_info('audit')").Scan(&name)
}
