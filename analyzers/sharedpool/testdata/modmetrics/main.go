// Command modmetrics serves its metrics and gathers them every minute, // want package:`lanes\(func literal in main\.main@interactive, func literal in main\.main@background\)`
// through a library's registry whose collectors are an interface. The
// library ships a collector around a database pool, which this program
// never builds: it opens no pool, and nothing is reported.
package main

import (
	"net/http"
	"time"

	"example.com/promlike"
)

func main() {
	reg := &promlike.Registry{}
	reg.Register(promlike.NewGoCollector())
	http.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) { reg.Gather() })
	go func() {
		for range time.Tick(time.Minute) {
			reg.Gather()
		}
	}()
	http.ListenAndServe(":9090", nil)
}
