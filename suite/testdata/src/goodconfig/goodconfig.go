// Package goodconfig has a .bhlint.yml bhlint can use: nothing to report.
package goodconfig
