// Package memberlist stubs hashicorp/memberlist: the members of a gossip
// cluster.
package memberlist

type Node struct{ Addr string }
