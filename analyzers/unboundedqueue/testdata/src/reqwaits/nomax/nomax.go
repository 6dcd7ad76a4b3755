// Package nomax is a store whose pool has no maximum: a caller with no
// context opens another connection instead of queueing for one, so its
// waits are no waits for a slot, whoever reaches them. Trap.
package nomax

import "database/sql"

var db, _ = sql.Open("postgres", "tags")

func Tags() []string {
	rows, _ := db.Query("SELECT name FROM tags")
	defer rows.Close()
	return nil
}
