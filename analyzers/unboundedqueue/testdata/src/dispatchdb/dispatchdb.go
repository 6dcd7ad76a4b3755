// Package dispatchdb is a store shaped as netmaker's database layer: each
// backend's functions in a package-level map, the map chosen per backend
// at run time, and every call looked up in it by a constant key. A
// goroutine per request that fetches through it waits on the database.
package dispatchdb

import (
	"database/sql"
	"net/http"
)

const (
	FETCH_ALL    = "fetchall"
	IS_CONNECTED = "isconnected"
)

var (
	SqliteDB *sql.DB
	PgDB     *sql.DB
	backend  = "sqlite"
)

var SQLITE_FUNCTIONS = map[string]interface{}{
	FETCH_ALL:    sqliteFetchRecords,
	IS_CONNECTED: sqliteConnected,
}

var PG_FUNCTIONS = map[string]interface{}{
	FETCH_ALL:    pgFetchRecords,
	IS_CONNECTED: pgConnected,
}

func getCurrentDB() map[string]interface{} {
	switch backend {
	case "postgres":
		return PG_FUNCTIONS
	default:
		return SQLITE_FUNCTIONS
	}
}

func sqliteFetchRecords(table string) (map[string]string, error) { // want sqliteFetchRecords:"waitsOnNetwork" sqliteFetchRecords:"waitsNoContext"
	return fetch(SqliteDB, table)
}

func pgFetchRecords(table string) (map[string]string, error) { // want pgFetchRecords:"waitsOnNetwork" pgFetchRecords:"waitsNoContext"
	return fetch(PgDB, table)
}

func fetch(db *sql.DB, table string) (map[string]string, error) { // want fetch:"waitsOnNetwork" fetch:"waitsNoContext"
	rows, err := db.Query("SELECT key, value FROM " + table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rows.Err()
}

func sqliteConnected() bool { return SqliteDB != nil }

func pgConnected() bool { return PgDB != nil }

// FetchRecords runs the current backend's fetch, whichever it is.
func FetchRecords(table string) (map[string]string, error) { // want FetchRecords:"waitsOnNetwork"
	return getCurrentDB()[FETCH_ALL].(func(string) (map[string]string, error))(table)
}

// IsConnected asks the current backend, which waits on nothing.
func IsConnected() bool {
	return getCurrentDB()[IS_CONNECTED].(func() bool)()
}

func publishPeers() { // want publishPeers:"waitsOnNetwork"
	hosts, err := FetchRecords("hosts")
	if err == nil {
		_ = hosts
	}
}

func logConnected() {
	if !IsConnected() {
		println("database not connected")
	}
}

func Register(mux *http.ServeMux) {
	mux.HandleFunc("/hosts", updateHost)
}

func updateHost(w http.ResponseWriter, r *http.Request) { // want updateHost:"startsGoroutine"
	go publishPeers() // want `goroutine per request: this go statement starts, on every request, a goroutine that waits on the network \(dispatchdb.FetchRecords\) with no deadline`
	// ---- trap: the same table, a key whose functions wait on nothing ----
	go logConnected()
	w.WriteHeader(http.StatusAccepted)
}
