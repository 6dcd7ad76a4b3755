// Package appctx holds the handles a process hands every part of it.
package appctx

import "database/sql"

type Context struct{ DB *sql.DB }

func New(db *sql.DB) *Context { return &Context{DB: db} }
