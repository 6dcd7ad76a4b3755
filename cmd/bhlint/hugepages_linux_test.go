package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"unsafe"
)

func TestHugePagesHelp(t *testing.T) {
	for _, tc := range []struct {
		thp, overcommit, godebug string
		asLimited                bool
		want                     bool
	}{
		{"always [madvise] never\n", "0\n", "", false, true},
		{"always [madvise] never\n", "1\n", "gctrace=0,madvdontneed=1", false, true},
		{"[always] madvise never\n", "0\n", "", false, false}, // the kernel gives them anyway
		{"always madvise [never]\n", "0\n", "", false, false},
		{"", "0\n", "", false, false}, // no THP support
		{"always [madvise] never\n", "2\n", "", false, false},
		{"always [madvise] never\n", "0\n", "", true, false},
		{"always [madvise] never\n", "0\n", "gctrace=1, disablethp=1", false, false},
		{"always [madvise] never\n", "0\n", "disablethp=0", false, true},
	} {
		if got := hugePagesHelp(tc.thp, tc.overcommit, tc.godebug, tc.asLimited); got != tc.want {
			t.Errorf("hugePagesHelp(%q, %q, %q, %v) = %v, want %v", tc.thp, tc.overcommit, tc.godebug, tc.asLimited, got, tc.want)
		}
	}
}

// TestHeapGrowsIntoHugePages checks on this machine that heap allocated after
// preferHugePages lies in a mapping the kernel marks for huge pages. The vet
// tool advises its heap first thing, so the check runs in a process of its
// own: in this one, the package's other tests have grown the heap already,
// and while they run in parallel they take the advised region first.
func TestHeapGrowsIntoHugePages(t *testing.T) {
	if !hugePagesHelpHere() {
		mode, _ := os.ReadFile(thpSettings)
		t.Skipf("this machine's settings do not call for huge pages (%s: %q; or vm.overcommit_memory=2, ulimit -v, GODEBUG=disablethp=1); run on Linux with transparent_hugepage in madvise mode to test", thpSettings, strings.TrimSpace(string(mode)))
	}
	if os.Getenv(hugePagesChild) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHeapGrowsIntoHugePages$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), hugePagesChild+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestHeapGrowsIntoHugePages") {
			t.Errorf("in a process of its own: %v\n%s", err, out)
		}
		return
	}
	if !preferHugePages() {
		t.Fatal("preferHugePages did not advise the heap")
	}
	buf := make([]byte, 8<<20)
	for i := range buf {
		buf[i] = 1
	}
	// The middle of it: its start may lie in the part of the region below
	// the first huge-page boundary, which is not advised.
	addr := uintptr(unsafe.Pointer(&buf[len(buf)/2]))
	flags, err := vmaFlags(addr)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the mapping of the middle of a new 8 MiB allocation, %#x, has VmFlags %q, without hg (MADV_HUGEPAGE)", addr, flags)
	}
}

// hugePagesChild is set in the environment of the process that checks the
// heap's mapping.
const hugePagesChild = "BHLINT_TEST_HUGEPAGES_CHILD"

// vmaFlags returns the VmFlags line of the mapping of this process that
// holds addr.
func vmaFlags(addr uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 { // a mapping's first line
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), nil
		}
	}
	return "", fmt.Errorf("no mapping of /proc/self/smaps holds %#x", addr)
}
