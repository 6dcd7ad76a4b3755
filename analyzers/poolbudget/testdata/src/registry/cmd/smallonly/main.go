// Command smallonly links only the backend with a constant maximum of 2:
// 30 × 2 = 60 ≤ 97.
package main

import (
	"registry/storage"
	_ "registry/storage/memory"
	_ "registry/storage/small"
)

func main() {
	_, _ = storage.NewProvider("small")
}
