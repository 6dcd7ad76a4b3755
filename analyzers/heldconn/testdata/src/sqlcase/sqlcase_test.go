package sqlcase

import (
	"context"
	"database/sql"
	"net/http"
	"testing"
)

// Trap: test code. A test holds a transaction across a call to its own test
// server; it runs once, under the test's -timeout, and no request traffic
// waits for its connection. The same body in callInsideTx is reported.
func TestCallInsideTx(t *testing.T) {
	db, _ := sql.Open("pgx", "")
	tx, err := db.BeginTx(context.Background(), nil)
	if err != nil {
		t.Skip(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(context.Background(), "INSERT INTO orders VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	holdAcrossFetch(tx, "http://127.0.0.1:1/")
}

// holdAcrossFetch is a helper in a _test.go file with no *testing.T: still
// test code.
func holdAcrossFetch(tx *sql.Tx, url string) { // want holdAcrossFetch:`queriesParam\(\[0\]\)`
	resp, err := http.Get(url)
	if err == nil {
		resp.Body.Close()
	}
	_, _ = tx.ExecContext(context.Background(), "SELECT 1")
}
