// Package cmdfanout: fan-outs in a command's function, after coder's server
// command, which shuts down the provisioner daemons it built from its
// configuration, one goroutine each.
package cmdfanout

import (
	"context"
	"net/http"
	"sync"

	"github.com/spf13/cobra"
)

type config struct{ Daemons int }

type daemon struct{ url string }

func (d *daemon) shutdown(ctx context.Context) error { // want shutdown:"waitsOnNetwork"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.url+"/shutdown", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Trap: the command runs once, when the command line names it; the
// daemons are as many as the configuration says.
func Server(cfg config) *cobra.Command {
	return &cobra.Command{
		Use: "server",
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := context.Background()
			var daemons []*daemon
			for i := 0; i < cfg.Daemons; i++ {
				daemons = append(daemons, &daemon{url: "http://127.0.0.1"})
			}
			var wg sync.WaitGroup
			for _, d := range daemons {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_ = d.shutdown(ctx)
				}()
			}
			wg.Wait()
			return nil
		},
	}
}

// ownCommand is the program's own struct: a literal stored in it is not
// handed to a framework, and runs whenever its caller runs it, here with
// the list a request sends.
type ownCommand struct {
	run func(ctx context.Context, urls []string)
}

func Handle(w http.ResponseWriter, r *http.Request) {
	cmd := ownCommand{run: func(ctx context.Context, urls []string) {
		for _, u := range urls {
			d := &daemon{url: u}
			go d.shutdown(ctx) // want `goroutine per item: this go statement starts one goroutine for every element of urls`
		}
	}}
	cmd.run(r.Context(), r.Form["url"])
}

// A handler the command registers runs once per request: a list it reads
// from the request is input.
func Serve() *cobra.Command {
	return &cobra.Command{
		Use: "serve",
		RunE: func(cmd *cobra.Command, args []string) error {
			http.HandleFunc("/notify", func(w http.ResponseWriter, r *http.Request) {
				for _, u := range r.Form["url"] {
					d := &daemon{url: u}
					go d.shutdown(r.Context()) // want `goroutine per item: this go statement starts one goroutine for every element of r.Form\["url"\]`
				}
			})
			return http.ListenAndServe(":8080", nil)
		},
	}
}
