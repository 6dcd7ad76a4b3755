// Package memstore is the in-memory backend of the blob store: it reaches
// no pool, and a deployment that picks it shares nothing.
package memstore

type Blobs struct{ m map[string]string }

func (b *Blobs) Read(k string) string { return b.m[k] }
