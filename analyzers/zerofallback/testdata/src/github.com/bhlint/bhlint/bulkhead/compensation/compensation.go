// Package compensation is a stub of bhlint's runtime compensation tables.
package compensation

type Table struct{ Entries map[string]float64 }

func (t *Table) Rate(key string) (float64, error) { return t.Entries[key], nil }
func (t *Table) Amount(key string) (int64, error) { return int64(t.Entries[key]), nil }
