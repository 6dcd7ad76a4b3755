package sqlpool // want package:"limitsPools"

import "database/sql"

type PoolConfig struct {
	Driver   string
	MaxConns int
}

// maximumOnlyIfConfigured sets a maximum only when the operator configured
// one: with the default (zero) the pool has none.
func maximumOnlyIfConfigured(dsn string, cfg PoolConfig) *Store {
	db, _ := sql.Open("pgx", dsn) // want `pool without a maximum: the \*sql.DB from sql.Open is stored in a struct with a maximum only when cfg.MaxConns > 0 \(its SetMaxOpenConns is under that if; unset, there is none\)`
	if cfg.MaxConns > 0 {
		db.SetMaxOpenConns(cfg.MaxConns)
	}
	return &Store{db: db}
}

// maximumOrDefault falls back to a maximum of its own: bounded. Silent.
func maximumOrDefault(dsn string, cfg PoolConfig) *Store {
	db, _ := sql.Open("pgx", dsn)
	if cfg.MaxConns > 0 {
		db.SetMaxOpenConns(cfg.MaxConns)
	} else {
		db.SetMaxOpenConns(10)
	}
	return &Store{db: db}
}

// maximumPerDriver sets a constant maximum for one driver; the condition
// does not test the maximum itself, so it is taken as set. Silent.
func maximumPerDriver(dsn string, cfg PoolConfig) *Store {
	db, _ := sql.Open(cfg.Driver, dsn)
	if cfg.Driver == "pgx" {
		db.SetMaxOpenConns(20)
	}
	return &Store{db: db}
}

// openConfigured is the opener its callers use: it owns the maximum, set
// only when configured, so the finding is here, not at its callers.
func openConfigured(dsn string, cfg PoolConfig) (*sql.DB, error) {
	db, err := sql.Open("pgx", dsn) // want `pool without a maximum: the \*sql.DB from sql.Open is returned with a maximum only when cfg.MaxConns > 0`
	if err != nil {
		return nil, err
	}
	if cfg.MaxConns > 0 {
		db.SetMaxOpenConns(cfg.MaxConns)
	}
	return db, nil
}

func useConfigured(dsn string, cfg PoolConfig) *Store {
	db, _ := openConfigured(dsn, cfg)
	return &Store{db: db}
}
