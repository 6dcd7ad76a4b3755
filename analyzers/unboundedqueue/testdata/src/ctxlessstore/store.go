// Package ctxlessstore is a store handed its *gorm.DB by the program, which // want package:"pendingWaits\\(1\\)"
// gives the pool its maximum elsewhere (ctxlessmain): the store neither
// bounds it nor imports what does, so its wait stays pending here and the
// main package reports it at this line.
package ctxlessstore

import (
	"context"

	"gorm.io/gorm"
)

type Job struct{ ID int }

type Store struct{ DB *gorm.DB }

func (s *Store) Job(ctx context.Context, id int) Job { // want Job:"waitsOnNetwork" Job:"ignoresContext"
	var j Job
	s.DB.Where("id = ?", id).First(&j) // want `wait with no deadline: \(\*gorm.DB\).First waits for a pool slot with no context, though Job was handed one \(ctx\)`
	return j
}
