// Package postgres is a stub of gorm.io/driver/postgres.
package postgres

import "gorm.io/gorm"

type dialector struct{ dsn string }

func (d dialector) Name() string { return "postgres" }

func Open(dsn string) gorm.Dialector { return dialector{dsn: dsn} }
