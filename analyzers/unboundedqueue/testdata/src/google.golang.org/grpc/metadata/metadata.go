// Package metadata is the part of google.golang.org/grpc/metadata the tests use.
package metadata

import "context"

type MD map[string][]string

func FromIncomingContext(ctx context.Context) (MD, bool) { return nil, false }
