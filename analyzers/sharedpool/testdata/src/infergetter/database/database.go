// Package database declares the handle its backends give the
// repositories: a getter of their pools.
package database

import "database/sql"

type Database interface {
	GetDB() *sql.DB
	GetReplica() *sql.DB
}
