package main

import "testing"

// Two handler packages that do not import each other may both reach one
// store's wait; the line is changed once, so it is reported once.
func TestSortFindingsKeepsOnePerLineAndCode(t *testing.T) {
	wait := newFinding("unboundedqueue", "store.go:10:2", "ERR_UNBOUNDED_QUEUE_DETECTED: wait reached from api.List")
	sameWait := newFinding("unboundedqueue", "store.go:10:2", "ERR_UNBOUNDED_QUEUE_DETECTED: wait reached from proxy.Get")
	otherLine := newFinding("unboundedqueue", "store.go:11:2", "ERR_UNBOUNDED_QUEUE_DETECTED: wait reached from proxy.Get")
	otherAnalyzer := newFinding("heldconn", "store.go:10:2", "ERR_CONN_HELD_ACROSS_NETWORK_CALL: held")
	got := sortFindings([]finding{sameWait, otherLine, wait, otherAnalyzer})
	if len(got) != 3 {
		t.Fatalf("got %d findings, want 3: %+v", len(got), got)
	}
	if got[1].Analyzer != "unboundedqueue" || got[1].Message != "wait reached from api.List" {
		t.Errorf("kept %q, want the first in order, from api.List", got[1].Message)
	}
}

// Notices carry no code: two different ones at one place are both kept.
func TestSortFindingsKeepsDifferentNotices(t *testing.T) {
	a := newFinding("bhlint", "go.mod:1:1", "package a not analysed")
	b := newFinding("bhlint", "go.mod:1:1", "package b not analysed")
	if got := sortFindings([]finding{a, b, a}); len(got) != 2 {
		t.Fatalf("got %d notices, want 2: %+v", len(got), got)
	}
}
