// Package diprovided hands its constructors to a container // want package:"limitsPools"
//
// A dependency-injection container calls each once at start-up and keeps what it returns
// for the process's life: a pool such a constructor opens and hands back
// with no maximum is the process's pool, reported at its open, though no
// call of the program's opens it.
package diprovided

import (
	"database/sql"

	"go.uber.org/dig"
	"go.uber.org/fx"
)

type Config struct{ DatabaseURL string }

func newSQL(cfg Config) (*sql.DB, error) { // want newSQL:"opensUnboundedDB\\(0, sql.Open\\)"
	d, err := sql.Open("pgx", cfg.DatabaseURL) // want `pool without a maximum: the \*sql.DB from sql.Open is handed back to the container it is provided to \(fx.Provide\)`
	if err != nil {
		return nil, err
	}
	return d, nil
}

func newReplica(cfg Config) (*sql.DB, error) { // want newReplica:"opensUnboundedDB\\(0, sql.Open\\)"
	return sql.Open("pgx", cfg.DatabaseURL+"?replica") // want `pool without a maximum: the \*sql.DB from sql.Open is handed back to the container it is provided to \(fx.Provide\)`
}

func newAudit(cfg Config) *sql.DB { // want newAudit:"opensUnboundedDB\\(0, sql.Open\\)"
	d, _ := sql.Open("pgx", cfg.DatabaseURL+"?audit") // want `pool without a maximum: the \*sql.DB from sql.Open is handed back to the container it is provided to \(\(\*dig.Container\).Provide\)`
	return d
}

// newBounded sets its maximum before handing the pool back: silent.
func newBounded(cfg Config) (*sql.DB, error) {
	d, err := sql.Open("pgx", cfg.DatabaseURL+"?bounded")
	if err != nil {
		return nil, err
	}
	d.SetMaxOpenConns(20)
	return d, nil
}

// openForMigration hands its pool back to a caller of the program's, which
// decides; it is not provided to the container (fx.Invoke runs a function,
// it does not keep what it returns): silent here.
func openForMigration(cfg Config) (*sql.DB, error) { // want openForMigration:"opensUnboundedDB\\(0, sql.Open\\)"
	return sql.Open("pgx", cfg.DatabaseURL+"?migrate")
}

func migrate(cfg Config) error { // want migrate:"waitsOnNetwork"
	db, err := openForMigration(cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Exec("select 1")
	return err
}

func Build() fx.Option {
	return fx.Options(
		fx.Provide(newSQL),
		fx.Provide(fx.Annotate(newReplica, fx.ResultTags(`name:"replica"`))),
		fx.Provide(newBounded),
		fx.Invoke(migrate),
	)
}

func BuildDig() error {
	c := dig.New()
	return c.Provide(newAudit)
}
