// Package endpoint stands in for go-kit's endpoint package.
package endpoint

import "context"

type Endpoint func(ctx context.Context, request interface{}) (response interface{}, err error)

type Middleware func(Endpoint) Endpoint
