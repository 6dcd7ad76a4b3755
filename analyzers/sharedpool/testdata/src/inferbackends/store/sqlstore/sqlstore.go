// Package sqlstore is the database backend of the blob store.
package sqlstore

import "database/sql"

type Blobs struct{ DB *sql.DB }

func (b *Blobs) Read(k string) string { // want Read:`reaches\(inferbackends/store/sqlstore\.Blobs\.DB\(no lane\)\)`
	var v string
	b.DB.QueryRow("SELECT v FROM blobs WHERE k = $1", k).Scan(&v)
	return v
}
