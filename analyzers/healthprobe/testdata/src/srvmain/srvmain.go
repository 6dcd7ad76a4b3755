package srvmain // want package:`pendingProbes\(probes: ; resolved 0; impls: \(\*cloudstore.adminStorage\).CheckDatabaseAccessible, \(\*sqlstore.adminStorage\).CheckDatabaseAccessible\)`

// Package srvmain fills srvutil.Main's fields, as trillian's log server
// and signer do: the report is where a function reaching the shared pool
// is stored in the field the probe calls.

import (
	"context"
	"database/sql"
	"net"

	"srvutil"
	"storeprov"
)

func logServer(db *sql.DB) error { // want logServer:`callsThrough\(\(storeiface.Provider\).AdminStorage; \(storeiface.Provider\).AdminStorage\)`
	sp := storeprov.Open(db)
	m := &srvutil.Main{
		IsHealthy: func(ctx context.Context) error { // want `ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN: health probe \(\*srvutil.Main\).healthz \(route "/healthz", through Main.IsHealthy set here\) reaches the database pool adminStorage.db that request traffic also uses \(\(\*srvutil.Main\).healthz → the func literal in srvmain.logServer → \(storeiface.AdminStorage\).CheckDatabaseAccessible → \(\*sqlstore.adminStorage\).CheckDatabaseAccessible → \(\*sql.DB\).PingContext\)`
			as := sp.AdminStorage()
			return as.CheckDatabaseAccessible(ctx)
		},
		// A start-up gate: no probe calls OnStart.
		OnStart: sp.AdminStorage().CheckDatabaseAccessible,
		// A goroutine the probe starts and does not wait for.
		Background: sp.AdminStorage().CheckDatabaseAccessible,
	}
	return m.Run(context.Background())
}

func logSigner(db *sql.DB) error { // want logSigner:`callsThrough\(\(storeiface.Provider\).AdminStorage\)`
	sp := storeprov.Open(db)
	m := &srvutil.Main{
		IsHealthy: sp.AdminStorage().CheckDatabaseAccessible, // want `health probe \(\*srvutil.Main\).healthz \(route "/healthz", through Main.IsHealthy set here\) reaches the database pool adminStorage.db that request traffic also uses \(\(\*srvutil.Main\).healthz → \(storeiface.AdminStorage\).CheckDatabaseAccessible → \(\*sqlstore.adminStorage\).CheckDatabaseAccessible → \(\*sql.DB\).PingContext\)`
	}
	return m.Run(context.Background())
}

// dedicated: the probe dials a connection of its own.
func dedicated(addr string) error {
	m := &srvutil.Main{
		IsHealthy: func(ctx context.Context) error {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				return err
			}
			return c.Close()
		},
	}
	return m.Run(context.Background())
}
