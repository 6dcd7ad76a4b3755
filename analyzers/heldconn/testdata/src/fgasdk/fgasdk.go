// Package fgasdk is an authorization service's SDK written as generated
// SDKs are: the request is built through an interface, and its Execute
// hands it to a service interface, also implemented here, that sends it.
// Every hop is a call through an interface of the SDK's own.
package fgasdk

import (
	"context"
	"net/http"
	"strings"
)

type WriteTuplesRequest interface {
	Body(user string) WriteTuplesRequest
	Execute() error
}

type Service interface {
	WriteExecute(r *writeTuples) error
}

type Client struct{ api Service }

func New(hc *http.Client) *Client { return &Client{api: &service{hc: hc}} }

func (c *Client) WriteTuples(ctx context.Context) WriteTuplesRequest {
	return &writeTuples{ctx: ctx, api: c.api}
}

type writeTuples struct {
	ctx  context.Context
	api  Service
	user string
}

func (r *writeTuples) Body(user string) WriteTuplesRequest { r.user = user; return r }

func (r *writeTuples) Execute() error { return r.api.WriteExecute(r) }

type service struct{ hc *http.Client }

func (s *service) WriteExecute(r *writeTuples) error {
	req, err := http.NewRequestWithContext(r.ctx, "POST", "https://fga.example/write", strings.NewReader(r.user))
	if err != nil {
		return err
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Options are set in memory: a builder interface whose implementation here
// sends nothing.
type Options interface {
	WithRetries(n int) Options
}

type options struct{ retries int }

func (o *options) WithRetries(n int) Options { o.retries = n; return o }

func NewOptions() Options { return &options{} }
