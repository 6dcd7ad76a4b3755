// Package healthcheck is a stub of heptiolabs/healthcheck.
package healthcheck

import (
	"database/sql"
	"net/http"
	"time"
)

type Check func() error

type Handler interface {
	http.Handler
	AddLivenessCheck(name string, check Check)
	AddReadinessCheck(name string, check Check)
}

func NewHandler() Handler                                             { return nil }
func DatabasePingCheck(database *sql.DB, timeout time.Duration) Check { return nil }
func HTTPGetCheck(url string, timeout time.Duration) Check            { return nil }
func TCPDialCheck(addr string, timeout time.Duration) Check           { return nil }
func Async(check Check, interval time.Duration) Check                 { return check }
