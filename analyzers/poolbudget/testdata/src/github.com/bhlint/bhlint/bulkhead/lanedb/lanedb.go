// Package lanedb is a stub of the runtime's lane-typed database/sql pool.
package lanedb

import (
	"database/sql/driver"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
)

type DB[L bulkhead.Lane] struct{}

func Open[L bulkhead.Lane](driverName, dsn string, cfg lanepool.Config) (*DB[L], error) {
	return &DB[L]{}, nil
}

func OpenDB[L bulkhead.Lane](c driver.Connector, cfg lanepool.Config) (*DB[L], error) {
	return &DB[L]{}, nil
}
