// Package syntaxerr does not parse.
package syntaxerr

func Broken() {
	if {
}
