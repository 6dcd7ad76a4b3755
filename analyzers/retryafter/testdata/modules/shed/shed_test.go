package shed

import (
	"context"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// A fake server in a test sheds on purpose: not reported.
type fakeServer struct{}

func (fakeServer) Get(ctx context.Context, _ *Req) (*Resp, error) {
	return nil, status.Error(codes.ResourceExhausted, "fake overload")
}

func TestFake(t *testing.T) {
	if _, err := (fakeServer{}).Get(context.Background(), nil); status.Code(err) != codes.ResourceExhausted {
		t.Fatal(err)
	}
}
