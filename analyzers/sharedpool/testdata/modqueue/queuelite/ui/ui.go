// Package ui serves the queue's tasks as web pages, from the pool in its
// configuration.
package ui

import (
	"database/sql"
	"net/http"
)

type Config struct {
	DB *sql.DB
}

type Handler struct {
	cfg Config
}

func NewHandler(cfg Config) (*Handler, error) {
	return &Handler{cfg: cfg}, nil
}

// Running lists the running tasks; the program's router adapts it.
func (h *Handler) Running(w http.ResponseWriter, r *http.Request) error {
	rows, err := h.cfg.DB.QueryContext(r.Context(), "SELECT id FROM tasks WHERE claimed = 1")
	if err != nil {
		return err
	}
	return rows.Close()
}
