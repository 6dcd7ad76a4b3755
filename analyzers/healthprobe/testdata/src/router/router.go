// Package router registers the handlers package's probes.
package router

import (
	"database/sql"

	"github.com/gin-gonic/gin"

	"handlers"
)

func Setup(db *sql.DB) {
	h := handlers.New(db)
	g := gin.New()
	g.GET("/ready", h.Ready)                 // want `readiness probe \(\*handlers.Health\).Ready \(route "/ready"\) reaches the database pool Health.db that request traffic also uses \(\(\*handlers.Health\).Ready → \(\*sql.DB\).PingContext\)`
	g.GET("/readyz", handlers.Readiness(db)) // want `readiness probe the func literal in handlers.Readiness \(route "/readyz"\) reaches the database pool passed to router.Setup .*\(the func literal in handlers.Readiness → \(\*sql.DB\).PingContext\)`
	g.GET("/livez", h.Live)
	g.GET("/healthz", handlers.Liveness())
	g.GET("/health", handlers.Deep(db)) // want `health probe the func literal in handlers.Deep \(route "/health"\) reaches the database pool passed to router.Setup .*\(the func literal in handlers.Deep → handlers.pingOK → \(\*sql.DB\).PingContext\)`
}
