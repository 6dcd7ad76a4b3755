// Package healthx is a stub of ory's health handler.
package healthx

import "net/http"

type ReadyChecker func(r *http.Request) error
type ReadyCheckers map[string]ReadyChecker

type Handler struct{}

func NewHandler(version string, readyCheckers ReadyCheckers) *Handler { return &Handler{} }
