//go:build unix

package tenant_test

import "syscall"

// cpuTime is the CPU time the process has used so far (user and system),
// in nanoseconds; ok is false where it cannot be read.
func cpuTime() (ns int64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
