package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"unsafe"
)

// Transparent huge pages for a vet-tool process's heap.
//
// Each package's process faults in every page of heap it touches, one 4 KiB
// page at a time; on a virtual machine a fault can cost over 10 µs, and the
// faults took a quarter of the CPU time of a mid-size package on the corpus
// machine (bench/realworld/NOTES.md). Where the kernel gives huge pages only
// to memory that asks for them (transparent_hugepage "madvise", the setting
// of many distributions' kernels), the Go runtime does not ask for its heap.
// So the process asks: it has the runtime map a region of heap with one
// large allocation, advises the region MADV_HUGEPAGE, and frees it at once;
// the runtime's page allocator hands out the lowest free addresses first, so
// the heap the analysis builds grows into the advised region, 2 MiB per
// fault. Untouched, the region costs address space only (FreeOSMemory
// returns it).
//
// It is skipped where it cannot help or could hurt: huge pages "always" or
// "never", GODEBUG=disablethp=1 (the Go runtime's own switch for turning
// huge pages off), strict overcommit (vm.overcommit_memory=2, where the
// mapping is charged in full) and a limit on address space (ulimit -v), under
// which a failed mapping would end the process.
const (
	hugeRegion  = 256 << 20 // bytes of heap advised; most packages' heap fits
	hugePage    = 2 << 20
	madvHuge    = 14 // MADV_HUGEPAGE
	thpSettings = "/sys/kernel/mm/transparent_hugepage/enabled"
	overcommit  = "/proc/sys/vm/overcommit_memory"
)

// preferHugePages advises huge pages for the next hugeRegion bytes of heap
// when this machine's settings call for it; it reports whether it did.
func preferHugePages() bool {
	if !hugePagesHelpHere() {
		return false
	}
	region := make([]byte, hugeRegion)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(region)))
	lo := (start + hugePage - 1) &^ (hugePage - 1)
	hi := (start + hugeRegion) &^ (hugePage - 1)
	err := syscall.Madvise(region[lo-start:hi-start], madvHuge) // whole huge pages only
	runtime.KeepAlive(region)
	debug.FreeOSMemory() // frees region, now unreachable, and returns its pages
	return err == nil
}

// hugePagesHelpHere is hugePagesHelp for this machine and process.
func hugePagesHelpHere() bool {
	mode, _ := os.ReadFile(thpSettings)
	commit, _ := os.ReadFile(overcommit)
	var as syscall.Rlimit
	limited := syscall.Getrlimit(syscall.RLIMIT_AS, &as) != nil || as.Cur != ^uint64(0)
	return hugePagesHelp(string(mode), string(commit), os.Getenv("GODEBUG"), limited)
}

// hugePagesHelp decides from the kernel's transparent_hugepage mode, its
// overcommit mode, GODEBUG and whether address space is limited.
func hugePagesHelp(thpMode, overcommitMode, godebug string, asLimited bool) bool {
	if !strings.Contains(thpMode, "[madvise]") {
		return false // "always" needs no advice; "never" ignores it
	}
	if strings.TrimSpace(overcommitMode) == "2" || asLimited {
		return false
	}
	for _, setting := range strings.Split(godebug, ",") {
		if strings.TrimSpace(setting) == "disablethp=1" {
			return false
		}
	}
	return true
}
