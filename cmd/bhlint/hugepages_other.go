//go:build !linux

package main

// preferHugePages is Linux only: elsewhere the runtime's defaults stay.
func preferHugePages() bool { return false }
