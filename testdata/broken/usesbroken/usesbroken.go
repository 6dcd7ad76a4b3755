// Package usesbroken imports a package that does not type-check.
package usesbroken

import "example.com/broken/typeerr"

// Double doubles the broken total.
func Double() int { return 2 * typeerr.Total() }
