// Package sdk is an API client the way generated SDKs are written: the
// request builder is an interface, its implementation in the same package
// hands the request to a service interface, also implemented here, that
// finally sends it. Every hop is a call through an interface.
package sdk

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

type WriteRequest interface {
	Body(b string) WriteRequest
	Execute() (int, error) // want Execute:`mayNetwork\(\(\*sdk.writeRequest\).Execute → \(sdk.API\).WriteExecute → \(\*sdk.apiService\).WriteExecute → \(\*http.Client\).Do\)`
}

type API interface {
	Write(ctx context.Context) WriteRequest
	WriteExecute(r *writeRequest) (int, error) // want WriteExecute:`mayNetwork\(\(\*sdk.apiService\).WriteExecute → \(\*http.Client\).Do\)`
}

type writeRequest struct {
	ctx  context.Context
	api  API
	body string
}

func (r *writeRequest) Body(b string) WriteRequest { r.body = b; return r }

func (r *writeRequest) Execute() (int, error) { return r.api.WriteExecute(r) } // want Execute:`mayNetwork\(\(sdk.API\).WriteExecute → \(\*sdk.apiService\).WriteExecute → \(\*http.Client\).Do\)`

type apiService struct{ client *http.Client }

func (a *apiService) Write(ctx context.Context) WriteRequest { return &writeRequest{ctx: ctx, api: a} }

func (a *apiService) WriteExecute(r *writeRequest) (int, error) { // want WriteExecute:`mayNetwork\(\(\*http.Client\).Do\)`
	req, err := http.NewRequestWithContext(r.ctx, "POST", "https://fga.example/write", nil)
	if err != nil {
		return 0, err
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return 0, err
	}
	return resp.StatusCode, resp.Body.Close()
}

func New(c *http.Client) API { return &apiService{client: c} }

// Cache is implemented here only in memory: its calls stay local, whatever
// an importer implements it with.
type Cache interface {
	Get(key string) (string, bool)
}

type memCache map[string]string

func (m memCache) Get(key string) (string, bool) { v, ok := m[key]; return v, ok }

// Sink has no implementation in this package: which one runs is decided
// elsewhere, so a call through it is not taken to reach the network even
// though an importer implements it with an HTTP post.
type Sink interface {
	Put(v string) error
}

func Drain(s Sink, vs []string) error {
	for _, v := range vs {
		if err := s.Put(v); err != nil {
			return err
		}
	}
	return nil
}

// Logger is implemented here three ways, one of which writes to a server
// (a syslog-style sink): what a call of its methods does is the
// deployment's choice, and the stream writer stays local (the discarding
// one calls nothing: a stand-in, which decides nothing). Not every
// implementation reaches the network, so the method does not (xorm's
// log.Logger, which every session method calls).
type Logger interface {
	Info(msg string)
}

type streamLogger struct{ w io.Writer }

func (l *streamLogger) Info(msg string) { fmt.Fprintln(l.w, msg) }

type discardLogger struct{}

func (discardLogger) Info(string) {}

type remoteLogger struct{ client *http.Client }

func (l *remoteLogger) Info(msg string) { // want Info:`mayNetwork\(\(\*http.Client\).Do\)`
	req, _ := http.NewRequest("POST", "https://logs.example/", nil)
	if resp, err := l.client.Do(req); err == nil {
		resp.Body.Close()
	}
}
