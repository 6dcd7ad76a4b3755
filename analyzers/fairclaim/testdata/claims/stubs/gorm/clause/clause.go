// Package clause is a stub of gorm.io/gorm/clause.
package clause

type Expression interface{}

type Table struct{ Name string }

type Locking struct {
	Strength string
	Table    Table
	Options  string
}

const (
	LockingStrengthUpdate    = "UPDATE"
	LockingOptionsSkipLocked = "SKIP LOCKED"
)
