// Package pipelines is a service whose check pings the pool it serves from.
package pipelines

import (
	"context"
	"database/sql"
)

type Service struct{ db *sql.DB }

func (s *Service) Check(ctx context.Context) error {
	return s.db.PingContext(ctx)
}
