// Command literal opens a backend of a map literal of constructors: the
// server one, 5 connections (30 × 5 = 150 > 97); the SQLite one is no
// alternative.
package main

import "registry/lit"

func main() { // want `30 replicas × \(5 db in lit.Open → lit.openPG\) = 150 connections to database main`
	_, _ = lit.Open("postgres")
}
