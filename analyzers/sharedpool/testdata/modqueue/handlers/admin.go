// Package handlers registers the admin pages: the queue's page methods, // want package:`lanes\(\(\*ui.Handler\).Running@interactive, \(\*ui.Handler\).Running@interactive\)`
// built on the program's pool and adapted to the router.
package handlers

import (
	"database/sql"
	"net/http"

	"example.com/modqueue/services"
	"example.com/queuelite/ui"
)

func Register(mux *http.ServeMux, c *services.Container) error { // want Register:`reaches\(services.Container.Database\(no lane\)\)`
	admin, err := ui.NewHandler(ui.Config{DB: c.Database})
	if err != nil {
		return err
	}
	mux.HandleFunc("/admin/tasks", adapt(admin.Running))
	return nil
}

func adapt(page func(http.ResponseWriter, *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := page(w, r); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	}
}

// RegisterAdmin serves the admin pages from the pool it is handed.
func RegisterAdmin(mux *http.ServeMux, db *sql.DB) error { // want RegisterAdmin:`storesParam\(ui.Config.DB\)`
	admin, err := ui.NewHandler(ui.Config{DB: db})
	if err != nil {
		return err
	}
	mux.HandleFunc("/admin/tasks", adapt(admin.Running))
	return nil
}
