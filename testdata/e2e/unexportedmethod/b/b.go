// Package b declares a type whose underlying type is a's interface: its
// method apply still belongs to package a.
package b

import "example.com/e2e/unexportedmethod/a"

type J a.I

func Use(opts ...J) {}
