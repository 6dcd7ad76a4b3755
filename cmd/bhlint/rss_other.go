//go:build !linux

package main

// peakRSSKiB is 0 where ru_maxrss's unit differs (bytes on Darwin) or
// getrusage is missing: the run log then leaves the column at 0.
func peakRSSKiB() int64 { return 0 }
