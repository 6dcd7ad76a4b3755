// Package db holds the service's pools and the helpers every lane calls.
package db

import (
	"context"
	"database/sql"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Card is card authorisation's pool.
var Card *pgxpool.Pool //bhlint:lane card_auth

// Tax is the tax lane's pool.
var Tax *pgxpool.Pool //bhlint:lane tax

// Audit has no lane: whoever writes the audit trail shares it.
var Audit *sql.DB

// MerchantCountry reads the merchant table, on the card pool.
func MerchantCountry(ctx context.Context, id string) (string, error) {
	return merchantRow(ctx, "SELECT country FROM merchants WHERE id = $1", id)
}

func merchantRow(ctx context.Context, query, id string) (value string, err error) {
	err = Card.QueryRow(ctx, query, id).Scan(&value)
	return value, err
}

// TaxRate reads the tax lane's own table.
func TaxRate(ctx context.Context, country string) (bp int64, err error) {
	err = Tax.QueryRow(ctx, "SELECT rate_bp FROM rates WHERE country = $1", country).Scan(&bp)
	return bp, err
}

// WriteAudit appends to the audit trail.
func WriteAudit(ctx context.Context, event string) error {
	_, err := Audit.ExecContext(ctx, "INSERT INTO audit (event) VALUES ($1)", event)
	return err
}
