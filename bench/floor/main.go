// Command floor is the type-checking floor of bhlint's speed: a vet tool
// that does nothing but what every vet tool must. bench/realworld/run.sh
// times `go vet -vettool=floor` beside `go vet -vettool=bhlint` on the same
// packages, and bhlint's speed target is its CPU time against this one's
// (at most 1.3×, with GODEBUG=disablethp=1 so that bhlint's huge-page advice
// is off on both sides), not against go vet's analyzers, which do less than
// bhlint's and more than nothing.
//
// What the floor pays is what any analyzer run under go vet pays, whatever
// it finds: the go command plans the build and starts one process per
// package, dependencies included (as "VetxOnly" units, for their facts);
// each process parses the package, type-checks it against its imports'
// export data, reads the facts files of its imports and writes its own.
//
// Its one analyzer, noop, reports nothing and exports no fact, but it
// declares a fact type, as bhlint's analyzers do: so noop runs in the
// dependencies' units too (unitchecker drops there every analyzer that
// neither declares nor requires a fact type), and the floor stays a floor
// if a later unitchecker skips the type-checking or the facts files of a
// dependency's unit when no analyzer needs them (x/tools v0.49.0, the
// version bhlint pins, does that work in every unit regardless).
//
// It is a benchmark fixture, not a product: nothing else uses it.
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// floorFact is never exported; declaring it is what matters (above).
type floorFact struct{}

func (*floorFact) AFact() {}

func (*floorFact) String() string { return "floor" }

var noop = &analysis.Analyzer{
	Name:      "noop",
	Doc:       "noop does nothing: the type-checking floor a vet tool cannot go below (bench/floor)",
	FactTypes: []analysis.Fact{new(floorFact)},
	Run:       func(*analysis.Pass) (any, error) { return nil, nil },
}

func main() { unitchecker.Main(noop) }
