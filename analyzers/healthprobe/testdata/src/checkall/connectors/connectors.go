// Package connectors is another service whose check pings its pool.
package connectors

import (
	"context"
	"database/sql"
)

type Service struct{ db *sql.DB }

func (s *Service) Check(ctx context.Context) error {
	return s.db.PingContext(ctx)
}

// Plugins answers from what it holds in memory.
type Plugins struct{ loaded bool }

func (p *Plugins) Check(ctx context.Context) error { return nil }
