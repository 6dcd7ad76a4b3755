// Package testsupport mixes production code (server.go, reported) with test
// helpers that carry the test in a parameter or in the receiver
// (harness.go, silent). Its files do not all import testing, so it is not
// a package of test helpers as a whole.
package testsupport
