// Package handlers declares probe handlers that another package (router)
// registers: what they reach crosses the package boundary as facts.
package handlers

import (
	"database/sql"
	"net/http"

	"github.com/gin-gonic/gin"
)

type Health struct{ db *sql.DB }

func New(db *sql.DB) *Health { return &Health{db: db} }

func (h *Health) Ready(c *gin.Context) {
	if err := h.db.PingContext(c.Request.Context()); err != nil {
		c.String(http.StatusServiceUnavailable, "down")
	}
}

func (h *Health) Live(c *gin.Context) { c.String(http.StatusOK, "ok") }

// Readiness is a factory: the closure it returns pings the pool passed.
func Readiness(db *sql.DB) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := db.PingContext(c.Request.Context()); err != nil {
			c.String(http.StatusServiceUnavailable, "down")
		}
	}
}

// Liveness returns a closure that answers a constant.
func Liveness() gin.HandlerFunc {
	return func(c *gin.Context) { c.String(http.StatusOK, "ok") }
}

// Deep is a factory whose closure reaches the pool through a helper: the
// closure's call (line 42) and the pool's use (line 49) are two lines.
func Deep(db *sql.DB) gin.HandlerFunc {
	return func(c *gin.Context) {
		if !pingOK(c, db) {
			c.String(http.StatusServiceUnavailable, "down")
		}
	}
}

func pingOK(c *gin.Context, db *sql.DB) bool {
	return db.PingContext(c.Request.Context()) == nil
}
