// Package ctxlessstore is a store handed its *gorm.DB by the program, which
// gives the pool its maximum elsewhere (ctxlessmain): the store neither
// bounds it nor imports what does, and no request of its own reaches the
// wait; the main package, whose handler reaches it and which bounds the
// pool, reports it at this line.
package ctxlessstore

import (
	"context"

	"gorm.io/gorm"
)

type Job struct{ ID int }

type Store struct{ DB *gorm.DB }

func (s *Store) Job(ctx context.Context, id int) Job { // want Job:"waitsOnNetwork" Job:"ignoresContext" Job:`waitsNoContext\(\(\*gorm.DB\).First in \(Store\).Job\)`
	var j Job
	s.DB.Where("id = ?", id).First(&j) // want `wait with no deadline: \(\*gorm.DB\).First waits for a pool slot with no context, though \(Store\).Job was handed one \(ctx\), and a request reaches it`
	return j
}
