package main

import (
	"bytes"
	"testing"

	"github.com/bhlint/bhlint/analyzers/poolbudget"
)

// TestWriteBudgets: one line per command and target, with the command's
// directory in its module, the verdict, and the pools not counted; nothing
// at all without rows (no databases or dependencies declared).
func TestWriteBudgets(t *testing.T) {
	dirOf := func(pkg string) (string, bool) {
		return map[string]string{"example.com/svc/cmd/api": "cmd/api"}[pkg], pkg == "example.com/svc/cmd/api"
	}
	var out bytes.Buffer
	writeBudgets(&out, nil, dirOf)
	if out.Len() != 0 {
		t.Errorf("no rows: wrote %q", out.String())
	}
	writeBudgets(&out, []poolbudget.Row{
		{Command: "example.com/svc/cmd/api", Target: "database main", Replicas: 30, Terms: []string{"20 ordersDB", "20 reportsDB"},
			Total: 1200, Allows: 97, Which: "which allows 97 (max-connections 100 − reserved 3)", PerReplica: 3, Noun: "connections",
			Uncounted: []string{"db in store.FromConfig"}},
		{Command: "example.com/tools/seed", Target: "database main", Replicas: 30, Terms: []string{"3 db"},
			Total: 90, Allows: 97, Which: "which allows 97", PerReplica: 3, Noun: "connections"},
	}, dirOf)
	want := "\nconnection budgets (each command's pools × deploy.replicas, against the databases and dependencies of .bhlint.yml):\n" +
		"  cmd/api: 30 replicas × (20 ordersDB + 20 reportsDB) = 1200 connections to database main, which allows 97 (max-connections 100 − reserved 3)  EXCEEDS: per replica at most 3\n" +
		"    not counted, budget not a constant: db in store.FromConfig\n" +
		"  example.com/tools/seed: 30 replicas × (3 db) = 90 connections to database main, which allows 97  within\n"
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}
