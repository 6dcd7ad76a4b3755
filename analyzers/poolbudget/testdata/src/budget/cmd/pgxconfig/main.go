// Command pgxconfig sets its pgxpools' maxima: 30 × (2 + 1) = 90 ≤ 97.
package main

import (
	"context"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"
)

func main() {
	ctx := context.Background()
	cfg, _ := pgxpool.ParseConfig(os.Getenv("DATABASE_URL"))
	cfg.MaxConns = 2
	api, _ := pgxpool.NewWithConfig(ctx, cfg)
	jobs, _ := pgxpool.New(ctx, "host=db user=app pool_max_conns=1")
	_, _ = api, jobs
}
