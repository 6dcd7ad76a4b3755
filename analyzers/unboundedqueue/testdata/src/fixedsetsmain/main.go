// Command fixedsetsmain holds fan-outs over what main sets up at start-up
// and the look-alikes a request reaches.
package main

import (
	"context"
	"net/http"
	"os"
	"sync"
)

func post(ctx context.Context, url string) error { // want post:"waitsOnNetwork"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ---- a constructor only main calls ----

type runner struct{ procs []string }

func newRunner(tasks []string) *runner {
	var procs []string
	for _, t := range tasks {
		procs = append(procs, "run "+t)
	}
	return &runner{procs: procs}
}

// fansOutOverStartupProcesses: one goroutine per process of the Procfile
// main read once at start-up.
func (r *runner) fansOutOverStartupProcesses(ctx context.Context) {
	for _, p := range r.procs {
		go post(ctx, p)
	}
}

// ---- a function only main calls ----

// shutsDownStartupServers: one goroutine per server main started.
func shutsDownStartupServers(ctx context.Context, servers []*http.Server) {
	var wg sync.WaitGroup
	for _, srv := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			srv.Shutdown(ctx)
		}()
	}
	wg.Wait()
}

// ---- called from main and from a request ----

type job struct{ targets []string }

func newJob(targets []string) *job { return &job{targets: targets} }

func (j *job) fanOut(ctx context.Context) {
	for _, t := range j.targets {
		go post(ctx, t) // want `goroutine per item: this go statement starts one goroutine for every element of j.targets`
	}
}

func broadcast(ctx context.Context, urls []string) {
	for _, u := range urls {
		go post(ctx, u) // want `goroutine per item: this go statement starts one goroutine for every element of urls`
	}
}

// Notify is exported, but a main package has no importers: used only as
// a func value, it has no caller to ask, and is reported where it is.
func Notify(ctx context.Context, hooks []string) {
	for _, h := range hooks {
		go post(ctx, h) // want `goroutine per item: this go statement starts one goroutine for every element of hooks`
	}
}

var notifier = Notify

func main() { // want main:"servesConns"
	ctx := context.Background()
	newRunner(os.Args[1:]).fansOutOverStartupProcesses(ctx)
	newJob(os.Args[1:]).fanOut(ctx)
	broadcast(ctx, os.Args[1:])
	servers := []*http.Server{{Addr: ":8080"}, {Addr: ":8081"}}
	shutsDownStartupServers(ctx, servers)
	http.HandleFunc("/fanout", func(w http.ResponseWriter, r *http.Request) {
		newJob(r.Form["target"]).fanOut(r.Context())
		broadcast(r.Context(), r.Form["url"])
		// a loop a handler literal runs, inside main: once per request
		for _, u := range r.Form["ping"] {
			go post(r.Context(), u) // want `goroutine per item: this go statement starts one goroutine for every element of r.Form\["ping"\]`
		}
	})
	http.ListenAndServe(":8080", nil)
}
