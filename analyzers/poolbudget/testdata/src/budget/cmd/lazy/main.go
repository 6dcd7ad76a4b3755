// Command lazy reaches one lazily opened pool along three paths: one pool
// of 4, 30 × 4 = 120.
package main

import "budget/store"

func main() { // want `30 replicas × \(4 a\) = 120 connections to database main`
	a := store.Lazy()
	b := store.Lazy()
	users()
	_, _ = a, b
}

func users() { _ = store.Lazy().Ping() }
