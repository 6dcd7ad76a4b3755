// Package queries holds hand-written SQL used by other packages.
package queries

import "database/sql"

// ClaimSQL is reported here, where it is written, not where it is used.
const ClaimSQL = "SELECT id, customer_id FROM deliveries WHERE state = 'pending' ORDER BY run_at LIMIT 1 FOR UPDATE SKIP LOCKED" // want `of deliveries in ORDER BY run_at only, .*\(customer_id, seen in the claim's SELECT list\)`

var _ *sql.DB
