// Package c passes an a.I as a b.J, which go build accepts. A vet tool that
// reads b's types back with apply owned by b instead of a rejects it
// ("a.I does not implement b.J (missing method apply)"): golang.org/x/tools
// v0.50.0 to v0.52.0's unitchecker did, and bhlint then left c unanalysed.
// See docs/UPSTREAM.md.
package c

import (
	"example.com/e2e/unexportedmethod/a"
	"example.com/e2e/unexportedmethod/b"
)

func Run() { b.Use(a.New()) }
