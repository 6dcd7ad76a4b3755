package main

import (
	"slices"
	"testing"
)

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

// The finding kept carries the related positions of those it stands for:
// each is another end of a path to the line, in the order of their places.
func TestSortFindingsMergesRelated(t *testing.T) {
	open := func(caller string, line int) finding {
		f := newFinding("unboundedqueue", "internal/funcs.go:62:1", "ERR_UNBOUNDED_QUEUE_DETECTED: pool without a maximum")
		f.Related = []location{{File: caller, Line: line, Column: 13, Message: "passed here"}}
		return f
	}
	got := sortFindings([]finding{open("postgres/postgres.go", 60), open("mysql/mysql.go", 58), open("sqlserver/sqlserver.go", 58), open("mysql/mysql.go", 58)})
	if len(got) != 1 {
		t.Fatalf("got %d findings, want 1: %+v", len(got), got)
	}
	var files []string
	for _, r := range got[0].Related {
		files = append(files, r.File)
	}
	if want := []string{"mysql/mysql.go", "postgres/postgres.go", "sqlserver/sqlserver.go"}; !slices.Equal(files, want) {
		t.Errorf("related %q, want %q", files, want)
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
