// Command bhlint finds the code that lets one slow dependency take a whole Go
// service down: connections held across network calls, lanes sharing pools,
// unbounded queues, invented fallback values, retry storms, and sheds
// without Retry-After.
//
// It runs standalone (bhlint ./...) and as a vet tool
// (bhlint=$(command -v bhlint) && go vet -vettool="$bhlint" ./...), with the same findings: the
// standalone command drives the go command's vet protocol, which also gives it
// the build cache.
package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

func main() {
	if invokedByGoVet(os.Args[1:]) {
		runVetTool(os.Args[1:])
		return
	}
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "help":
			os.Exit(runCLI([]string{"-h"}, os.Stdout, os.Stdout))
		case "version":
			printVersion(os.Stdout)
			os.Exit(exitClean)
		case "lsp":
			if len(os.Args) > 2 {
				os.Exit(lspArgs(os.Args[2:], os.Stdout, os.Stderr))
			}
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

// lspArgs answers bhlint lsp with arguments: help for -h, an error for
// anything else, rather than a server the user did not ask for.
func lspArgs(args []string, stdout, stderr io.Writer) int {
	switch args[0] {
	case "-h", "-help", "--help", "help":
		printLSPUsage(stdout)
		return exitClean
	}
	fmt.Fprintf(stderr, "bhlint lsp: unexpected argument %q (it takes none; bhlint lsp -h)\n", args[0])
	return exitError
}
