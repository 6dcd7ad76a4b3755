// Package sqlite is a stub of gorm.io/driver/sqlite.
package sqlite

import "gorm.io/gorm"

type dialector struct{ file string }

func (d dialector) Name() string { return "sqlite" }

func Open(file string) gorm.Dialector { return dialector{file: file} }
