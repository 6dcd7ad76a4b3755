// Package calm is analysed normally by every test analyzer.
package calm

func Steady() {}
