// Command pgxdefault opens a pgxpool with a constant connection string and
// no pool_max_conns: pgxpool's default, at least 4 per process.
package main

import (
	"context"
	"os"

	"github.com/jackc/pgx/v5/pgxpool"
)

func main() { // want `30 replicas × \(4 pool \(pgxpool's default max\(4, NumCPU\), assumed 4\)\) = 120 connections to database main.*\(and fromEnv, whose budget is not a constant, is not counted\)`
	ctx := context.Background()
	pool, _ := pgxpool.New(ctx, "postgres://app@db/app?sslmode=disable")
	fromEnv, _ := pgxpool.New(ctx, os.Getenv("DATABASE_URL")) // the variable may set pool_max_conns
	_, _ = pool, fromEnv
}
