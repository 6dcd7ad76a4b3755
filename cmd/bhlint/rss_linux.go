package main

import "syscall"

// peakRSSKiB is the process's peak resident set in KiB (Linux reports
// ru_maxrss in KiB), or 0 when the system does not say.
func peakRSSKiB() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Maxrss
}
