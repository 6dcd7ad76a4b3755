// Package directives has misplaced lane directives.
package directives

import "database/sql"

// A missing or bad name is the directives analyzer's (ERR_MALFORMED_DIRECTIVE):
// sharedpool says nothing more.
//
//bhlint:lane
func missingName() {}

//bhlint:lane CardAuth
func badName() {}

// want +2 `//bhlint:lane tax is on variable retries of type int, which is not a pool or client`
//
//bhlint:lane tax
var retries int

type config struct {
	// want +1 `//bhlint:lane tax is on field DSN of type string, which is not a pool or client`
	DSN string //bhlint:lane tax
	// want +1 DB:`lane\(tax\)`
	DB *sql.DB //bhlint:lane tax
}

// want +2 `//bhlint:lane tax is attached to nothing bhlint reads; put it in the doc comment of a func or method`
//
//bhlint:lane tax
type lane struct{}

func body() {
	// want +1 `//bhlint:lane fraud is attached to nothing bhlint reads`
	//bhlint:lane fraud
	var db *sql.DB
	_ = db
}

// A directive on a var of a lane-typed or resource type is fine, one per spec.
var (
	//bhlint:lane fraud
	fraudDB *sql.DB // want fraudDB:`lane\(fraud\)`
)
