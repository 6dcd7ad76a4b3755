//go:build !unix

package tenant_test

// cpuTime cannot read the process's CPU time here: no cpu-ns/op.
func cpuTime() (ns int64, ok bool) { return 0, false }
