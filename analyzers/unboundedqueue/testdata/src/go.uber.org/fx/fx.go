// Package fx stands in for uber's fx.
package fx

type Option interface{}

type Annotated struct{}

func Provide(constructors ...interface{}) Option { return nil }

func Invoke(funcs ...interface{}) Option { return nil }

func Annotate(t interface{}, anns ...interface{}) interface{} { return Annotated{} }

func ResultTags(tags ...string) interface{} { return nil }

func Options(opts ...Option) Option { return nil }
