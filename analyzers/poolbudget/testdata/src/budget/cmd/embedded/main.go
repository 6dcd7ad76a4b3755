// Command embedded keeps a local SQLite cache beside its database pool: a
// file in the process holds none of the database's connections, and only
// the pool of 3 counts (30 × 3 = 90 ≤ 97).
package main

import (
	"database/sql"
	"os"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
)

func main() {
	cache, _ := sql.Open("sqlite3", "/var/cache/app.db")
	local, _ := gorm.Open(sqlite.Open("local.db"), &gorm.Config{})
	db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	db.SetMaxOpenConns(3)
	_, _, _ = cache, local, db
}
