package bulkhead

import "context"

// laneCtx is the context that work admitted by an executor runs with: the
// caller's context plus the lane's name. A type of its own instead of
// context.WithValue keeps admission to one 32-byte allocation, and lets
// [LaneOf] find the lane without walking the chain in the common case.
type laneCtx struct {
	context.Context
	lane string
}

type laneKey struct{}

func (c *laneCtx) Value(key any) any {
	if key == (laneKey{}) {
		return c
	}
	return c.Context.Value(key)
}

func (c *laneCtx) String() string {
	if s, ok := c.Context.(interface{ String() string }); ok {
		return s.String() + ".InLane(" + c.lane + ")"
	}
	return "context.InLane(" + c.lane + ")"
}

// inLane returns ctx marked as running in lane, reusing ctx when it already
// is (a lane's work calling its own executor again).
func inLane(ctx context.Context, lane string) context.Context {
	if c, ok := ctx.(*laneCtx); ok && c.lane == lane {
		return c
	}
	return &laneCtx{Context: ctx, lane: lane}
}

// LaneOf reports the lane that ctx's work runs in: the name of the lane
// whose executor admitted it (the innermost one, if work in one lane went
// through another lane's executor), or false for work no executor admitted.
//
// Lane-typed pools and clients use it as a run-time guard: work of lane A
// that uses lane B's pool puts B's capacity, and so B's failure domain, in
// A's path.
func LaneOf(ctx context.Context) (string, bool) {
	if ctx == nil {
		return "", false
	}
	c, ok := ctx.(*laneCtx)
	if !ok {
		c, ok = ctx.Value(laneKey{}).(*laneCtx)
		if !ok {
			return "", false
		}
	}
	return c.lane, true
}

// SpecOf is lane L's spec with its defaults filled in, or what in it to fix.
// Lane-typed pools and clients use it to learn the lane's name.
func SpecOf[L Lane]() (LaneSpec, error) { return resolveSpec[L]() }
