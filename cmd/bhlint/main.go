// Command bhlint finds the code that lets one slow dependency take a whole Go
// service down: connections held across network calls, lanes sharing pools,
// unbounded queues, invented fallback values, retry storms, and sheds
// without Retry-After.
//
// It runs standalone (bhlint ./...) and as a vet tool
// (go vet -vettool=$(which bhlint) ./...), with the same findings: the
// standalone command drives the go command's vet protocol, which also gives it
// the build cache.
package main

import (
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis/unitchecker"
)

func main() {
	if invokedByGoVet(os.Args[1:]) {
		tuneVetTool(os.Args[1:])
		unitchecker.Main(analyzers()...)
		return
	}
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "lsp":
			os.Exit(runLSP(os.Stdin, os.Stdout))
		case "lanes":
			os.Exit(runLanes(os.Args[2:], os.Stdout, os.Stderr))
		}
	}
	os.Exit(runCLI(os.Args[1:], os.Stdout, os.Stderr))
}

// invokedByGoVet recognises the unitchecker protocol: go vet asks for the
// tool's identity (-V=full) and flags (-flags), then passes one *.cfg file.
func invokedByGoVet(args []string) bool {
	if len(args) == 0 {
		return false
	}
	return slices.Contains(args, "-V=full") || slices.Contains(args, "-flags") ||
		strings.HasSuffix(args[len(args)-1], ".cfg")
}
