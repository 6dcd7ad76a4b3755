package bulkhead

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

type laneA struct{}

func (laneA) Spec() LaneSpec { return LaneSpec{MaxConcurrent: 2} }

type laneB struct{}

func (laneB) Spec() LaneSpec { return LaneSpec{Name: "lane_b", MaxConcurrent: 2} }

func TestLaneOf(t *testing.T) {
	a, b := MustExecutor[laneA](), MustExecutor[laneB]()
	if l, ok := LaneOf(context.Background()); ok || l != "" {
		t.Errorf("outside every lane: %q, %v", l, ok)
	}
	type key struct{}
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
	defer cancel()
	err := a.Do(parent, func(ctx context.Context) error {
		if l, ok := LaneOf(ctx); !ok || l != "lane_a" {
			t.Errorf("in lane_a: %q, %v", l, ok)
		}
		if ctx.Value(key{}) != "v" {
			t.Error("the caller's values are lost")
		}
		if !strings.Contains(ctx.(interface{ String() string }).String(), "InLane(lane_a)") {
			t.Errorf("String: %v", ctx)
		}
		// Derived contexts keep the lane; a nested executor's lane wins.
		sub, stop := context.WithTimeout(ctx, time.Second)
		defer stop()
		if l, _ := LaneOf(sub); l != "lane_a" {
			t.Errorf("derived context: %q", l)
		}
		same := a.Do(ctx, func(inner context.Context) error {
			if inner != ctx {
				t.Error("re-entering the same lane allocates a new context")
			}
			return nil
		})
		if same != nil {
			t.Error(same)
		}
		return b.Do(sub, func(ctx context.Context) error {
			if l, _ := LaneOf(ctx); l != "lane_b" {
				t.Errorf("nested executor: %q", l)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	// Cancellation still reaches the work through the lane's context.
	done := make(chan struct{})
	go func() {
		_ = a.Do(parent, func(ctx context.Context) error {
			cancel()
			<-ctx.Done()
			close(done)
			return nil
		})
	}()
	<-done
	if _, err := Call(context.Background(), b, func(ctx context.Context) (int, error) {
		if l, _ := LaneOf(ctx); l != "lane_b" {
			t.Errorf("Call: %q", l)
		}
		return 1, nil
	}); err != nil {
		t.Fatal(err)
	}
}

func TestHandlerRequestCarriesLane(t *testing.T) {
	a := MustExecutor[laneA]()
	var got string
	h := a.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ = LaneOf(r.Context())
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
	if got != "lane_a" {
		t.Errorf("the handler's request context is in lane %q, want lane_a", got)
	}
}

func BenchmarkLaneOf(b *testing.B) {
	a := MustExecutor[laneA]()
	_ = a.Do(context.Background(), func(ctx context.Context) error {
		sub, cancel := context.WithCancel(ctx)
		defer cancel()
		b.Run("direct", func(b *testing.B) {
			for b.Loop() {
				LaneOf(ctx)
			}
		})
		b.Run("derived", func(b *testing.B) {
			for b.Loop() {
				LaneOf(sub)
			}
		})
		return nil
	})
}
