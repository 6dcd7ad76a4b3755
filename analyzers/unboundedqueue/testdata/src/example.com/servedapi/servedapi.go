// Package servedapi is a generated server's controller: its handlers call
// the service through an interface whose implementation lives in a
// package this one does not import (openapi-generator's go-server).
package servedapi

import (
	"context"
	"net/http"
	"time"
)

// Servicer is implemented by the program's own service.
type Servicer interface {
	CreateItem(name string) error // want CreateItem:"servedPerRequest"
	Reindex() error
}

type Controller struct{ service Servicer }

// CreateItem is the handler the router calls for every request.
func (c *Controller) CreateItem(w http.ResponseWriter, r *http.Request) {
	if err := c.service.CreateItem(r.FormValue("name")); err != nil {
		w.WriteHeader(http.StatusInternalServerError)
	}
}

// RunReindex is a background loop: Reindex is not called per request.
func (c *Controller) RunReindex(ctx context.Context) {
	for ctx.Err() == nil {
		_ = c.service.Reindex()
		time.Sleep(time.Minute)
	}
}
