package singleflight

type Result struct {
	Val    any
	Err    error
	Shared bool
}

type Group struct{}

func (g *Group) Do(key string, fn func() (any, error)) (v any, err error, shared bool) {
	v, err = fn()
	return v, err, false
}
func (g *Group) DoChan(key string, fn func() (any, error)) <-chan Result { return nil }
