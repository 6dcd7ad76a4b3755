// Command separate is modqueue with a pool per lane: the admin pages on // want package:`lanes\(\)`
// one, the queue's workers on another. Nothing to report, though the same
// helper opens both and the same library fields carry them.
package main

import (
	"context"
	"net/http"

	"example.com/modqueue/handlers"
	"example.com/modqueue/services"
)

func main() {
	s := services.NewSeparate()
	s.Tasks.Start(context.Background())
	mux := http.NewServeMux()
	handlers.RegisterAdmin(mux, s.Admin)
	http.ListenAndServe(":8000", mux)
}
