// Command modqueue serves a task queue's admin pages and runs its workers // want package:`lanes\(\)`
// on the one pool the program opens (services.Container.Database): the
// finding sits where the program opens it, naming the program's field,
// though both ends reach it through the library's own fields.
package main

import (
	"context"
	"net/http"

	"example.com/modqueue/handlers"
	"example.com/modqueue/services"
)

func main() {
	c := services.NewContainer() // want `ERR_SHARED_FAILURE_DOMAIN_DETECTED: services.Container.Database, a database pool created once, serves both interactive and background work`
	c.Tasks.Start(context.Background())
	mux := http.NewServeMux()
	handlers.Register(mux, c)
	http.ListenAndServe(":8000", mux)
}
