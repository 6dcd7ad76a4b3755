// Package service declares the repository it needs; main wires in the
// implementation, which this package never sees (apache/answer's layers).
package service

import "context"

type UserRepo interface {
	Count(ctx context.Context) int
}

type Service struct{ Users UserRepo }

func (s *Service) Stats(ctx context.Context) int { return s.Users.Count(ctx) }
