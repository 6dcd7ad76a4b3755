package main

import (
	"flag"
	"fmt"
	"io"
)

// printUsage is bhlint -h and bhlint help: the subcommands, the flags and
// the exit codes.
func printUsage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprint(w, `usage: bhlint [flags] [packages]          analyse the packages (default ./...)
       bhlint lanes [flags] [packages]    print the lane map (bhlint lanes -h)
       bhlint lsp                         serve diagnostics to an editor: Language Server Protocol on stdio
       bhlint help                        print this help
       bhlint version                     print the version it was built from (also -version)
       bhlint=$(command -v bhlint) && go vet -vettool="$bhlint" [packages]
                                          the same analyzers through go vet

flags:
`)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprint(w, `
exit status:
  0  every package asked for was analysed, and nothing was found
  1  findings (with -fix: findings that no fix resolved)
  2  something asked for was not checked: a usage or configuration error, a package that does not
     load or type-check, an analyzer that failed; each is named on stderr

Every run ends with a summary on stderr: packages analysed, packages not analysed (with the reason),
functions skipped over the SSA budget, and what -baseline held back (with the entries that match
nothing any more) or -new-from-* left out. bhlint -explain NAME documents an analyzer or a code.
`)
}

// printLSPUsage is bhlint lsp -h.
func printLSPUsage(w io.Writer) {
	fmt.Fprint(w, `usage: bhlint lsp

Serves bhlint's diagnostics over the Language Server Protocol on standard input and output, beside
gopls: an editor starts it as a language server for Go files. It analyses a file's package when the
file is opened or saved, and offers the suggested fixes and a suppression as code actions.
It takes no flags; the .bhlint.yml that applies to each package configures it. With the
initialization option {"baseline": "FILE"} (relative to the workspace root; written by
bhlint -write-baseline), the findings the baseline holds are hints, and new ones warnings.
`)
}
