// want package:`fieldValues\(urfave/engine.config.MaxOpen = unbounded \(the default of flag -database.connection.open\)\)`

// Package engine is configured by functional options: the maximum a flag
// gives travels through an option into a field, and the pool's maximum is
// read from the field where the pool is opened.
package engine

import (
	"database/sql"
	"os"

	"github.com/urfave/cli/v2"

	"urfave/dbflags"
)

// Flags are the engine's command-line flags.
var Flags = dbflags.Flags

type config struct{ MaxOpen int }

type engine struct {
	config *config
	client *sql.DB
}

// Opt configures the engine.
type Opt func(*engine)

// WithMaxOpen sets the pool's maximum.
func WithMaxOpen(n int) Opt { // want WithMaxOpen:`createsPools\(stores param 0 into urfave/engine.config.MaxOpen\)`
	return func(e *engine) { e.config.MaxOpen = n }
}

// New opens the engine's pool with the maximum its options set.
func New(opts ...Opt) *engine { // want New:`createsPools\(e.client sql.Open field urfave/engine.config.MaxOpen dsn \$DATABASE_URL\)`
	e := &engine{config: new(config)}
	for _, opt := range opts {
		opt(e)
	}
	e.client, _ = sql.Open("pgx", os.Getenv("DATABASE_URL"))
	e.client.SetMaxOpenConns(e.config.MaxOpen)
	return e
}

// FromCLI builds the engine from the command line.
func FromCLI(c *cli.Context) *engine { // want FromCLI:`createsPools\(e.client sql.Open field urfave/engine.config.MaxOpen via engine.New dsn \$DATABASE_URL\)`
	return New(WithMaxOpen(c.Int("database.connection.open")))
}
