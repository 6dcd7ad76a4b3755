package service

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Schema is the PostgreSQL schema the service keeps its tables in, so it can
// share a database with other programs.
const Schema = "payment_core"

// Seeded data: merchants m1..m1000 (every 50th suspended) and orders
// o1..o10000.
const (
	Merchants = 1000
	Orders    = 10000
)

// OrderAmount is the amount of order i, as seeded.
func OrderAmount(i int) int64 { return int64(500 + (i*3779)%50000) }

// Setup creates the schema and tables if they are missing and seeds them,
// on one short-lived connection (application_name payment-core/setup).
// reset empties the tables the service writes.
func Setup(ctx context.Context, dsn string, reset bool) error {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return fmt.Errorf("payment-core: parsing the DSN: %w", err)
	}
	cfg.RuntimeParams["application_name"] = AppName("setup")
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("payment-core: connecting to PostgreSQL: %w", err)
	}
	defer conn.Close(context.Background())
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		stmts := []string{
			`SELECT pg_advisory_xact_lock(hashtext('payment_core.setup'))`,
			`CREATE SCHEMA IF NOT EXISTS ` + Schema,
			`SET LOCAL search_path = ` + Schema,
			`CREATE TABLE IF NOT EXISTS merchants (id text PRIMARY KEY, status text NOT NULL, country text NOT NULL)`,
			`CREATE TABLE IF NOT EXISTS orders (id text PRIMARY KEY, amount_cents bigint NOT NULL)`,
			`CREATE TABLE IF NOT EXISTS tax_quotes (order_id text PRIMARY KEY, tax_cents bigint NOT NULL,
				source text NOT NULL DEFAULT 'api', quoted_at timestamptz NOT NULL DEFAULT now())`,
			`CREATE TABLE IF NOT EXISTS authorizations (id bigserial PRIMARY KEY, merchant_id text NOT NULL,
				card_hash text NOT NULL, amount_cents bigint NOT NULL, approved boolean NOT NULL, at timestamptz NOT NULL DEFAULT now())`,
			`CREATE TABLE IF NOT EXISTS card_scores (card_hash text PRIMARY KEY, score int NOT NULL, scored_at timestamptz NOT NULL DEFAULT now())`,
			fmt.Sprintf(`INSERT INTO merchants SELECT 'm' || i, CASE WHEN i %% 50 = 0 THEN 'suspended' ELSE 'active' END,
				(ARRAY['US','US','CA','GB'])[1 + i %% 4] FROM generate_series(1, %d) i ON CONFLICT DO NOTHING`, Merchants),
			fmt.Sprintf(`INSERT INTO orders SELECT 'o' || i, 500 + (i * 3779) %% 50000 FROM generate_series(1, %d) i ON CONFLICT DO NOTHING`, Orders),
		}
		if reset {
			stmts = append(stmts, `TRUNCATE tax_quotes, authorizations, card_scores`)
		}
		for _, q := range stmts {
			if _, err := tx.Exec(ctx, q); err != nil {
				return fmt.Errorf("payment-core: setting up the schema: %w", err)
			}
		}
		return nil
	})
}
