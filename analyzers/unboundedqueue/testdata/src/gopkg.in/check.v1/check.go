// Package check stands in for gocheck, a test framework.
package check

type C struct{}

type Checker interface{}

var IsNil Checker

func (c *C) Assert(obtained interface{}, checker Checker, args ...interface{}) {}
