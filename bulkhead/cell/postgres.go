package cell

import (
	"context"
	"fmt"
	"regexp"

	"github.com/jackc/pgx/v5"
)

// Querier is what PostgresSource reads with: a *pgxpool.Pool or *pgx.Conn.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// DefaultTenant is the row of a PostgresSource's table that names the
// default cell.
const DefaultTenant = "*"

var tableRE = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// PostgresSource reads the map from a table (tenant text primary key, cell
// text not null); the row of tenant "*" is the default cell, and the cells
// are those the rows name. The map is read whole, on the refresh path only.
func PostgresSource(db Querier, table string) Source {
	return SourceFunc(func(ctx context.Context) (Map, error) {
		if !tableRE.MatchString(table) {
			return Map{}, fmt.Errorf("table %q: want a lower-case SQL name", table)
		}
		rows, err := db.Query(ctx, "select tenant, cell from "+table)
		if err != nil {
			return Map{}, err
		}
		defer rows.Close()
		m := Map{Tenants: map[string]string{}}
		seen := map[string]bool{}
		for rows.Next() {
			var tenant, cell string
			if err := rows.Scan(&tenant, &cell); err != nil {
				return Map{}, err
			}
			if !seen[cell] {
				seen[cell] = true
				m.Cells = append(m.Cells, cell)
			}
			if tenant == DefaultTenant {
				m.Default = cell
			} else {
				m.Tenants[tenant] = cell
			}
		}
		if err := rows.Err(); err != nil {
			return Map{}, err
		}
		if m.Default == "" {
			return Map{}, fmt.Errorf("table %s has no row for tenant %q (the default cell)", table, DefaultTenant)
		}
		return m, nil
	})
}
