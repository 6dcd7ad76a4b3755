package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/bhlint/bhlint/internal/lazyssa"
)

// passThrough holds the bhlint flags that go on to go vet: build tags, and
// the analyzer flags every bhlint analyzer or every SSA analyzer shares
// (-NAME.generated from guard.Wrap, -NAME.budget from lazyssa.Budgeted).
type passThrough struct {
	tags      *string
	generated *bool
	budget    *int
}

func addPassThroughFlags(fs *flag.FlagSet) *passThrough {
	return &passThrough{
		tags:      fs.String("tags", "", "comma-separated build tags, as for go build"),
		generated: fs.Bool("generated", false, "also report findings in generated files (// Code generated ... DO NOT EDIT.)"),
		budget: fs.Int("budget", -1, fmt.Sprintf("most SSA instructions in a function the path-sensitive analyzers check; "+
			"larger ones are reported as skipped (-1: the analyzers' default, %d; 0: no limit)", lazyssa.DefaultBudget)),
	}
}

// vetArgs are the go vet arguments the flags ask for.
func (p *passThrough) vetArgs() []string {
	var args []string
	if *p.tags != "" {
		args = append(args, "-tags="+*p.tags)
	}
	for _, a := range analyzers() {
		if *p.generated && a.Flags.Lookup("generated") != nil {
			args = append(args, "-"+a.Name+".generated=true")
		}
		if *p.budget >= 0 && a.Flags.Lookup("budget") != nil {
			args = append(args, "-"+a.Name+".budget="+strconv.Itoa(*p.budget))
		}
	}
	return args
}
