package fanout

import (
	"context"
	"testing"
)

// Test files are not checked: a test fanning out over its cases is not a
// queue in production.
func TestParallelNotify(t *testing.T) {
	for _, o := range []Order{{ID: "a"}} {
		go notify(context.Background(), o)
	}
	cases := map[string]Order{"a": {ID: "a"}}
	for _, o := range cases {
		go notify(context.Background(), o)
	}
}
