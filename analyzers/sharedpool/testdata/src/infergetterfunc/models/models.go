// Package models reaches the pool through a function that returns what the
// context holds, as nightingale's models.DB(ctx) does: a getter, not an
// opening.
package models

import (
	"database/sql"

	"infergetterfunc/appctx"
)

func DB(c *appctx.Context) *sql.DB { return c.DB }

func CountUsers(c *appctx.Context) error {
	_, err := DB(c).Query("SELECT count(*) FROM users")
	return err
}
