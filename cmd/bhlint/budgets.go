package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/bhlint/bhlint/analyzers/poolbudget"
)

// writeBudgets appends the connection budgets to the text lane map: for
// each main package, its pools times deploy.replicas against each database
// and dependency .bhlint.yml declares (poolbudget's arithmetic), within the
// limits or not. Nothing when none is declared.
func writeBudgets(w io.Writer, rows []poolbudget.Row, dirOf func(string) (string, bool)) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintln(w, "\nconnection budgets (each command's pools × deploy.replicas, against the databases and dependencies of .bhlint.yml):")
	for _, r := range rows {
		command := r.Command
		if dir, ok := dirOf(command); ok && dir != "." {
			command = dir
		}
		verdict := "within"
		if r.Exceeds() {
			verdict = fmt.Sprintf("EXCEEDS: per replica at most %d", r.PerReplica)
		}
		fmt.Fprintf(w, "  %s: %s  %s\n", command, r.Arithmetic(), verdict)
		if len(r.Uncounted) > 0 {
			fmt.Fprintf(w, "    not counted, budget not a constant: %s\n", strings.Join(r.Uncounted, ", "))
		}
	}
}
