// Package typeerr parses but does not type-check.
package typeerr

// Total returns a string where an int is declared.
func Total() int {
	return "forty-two"
}
