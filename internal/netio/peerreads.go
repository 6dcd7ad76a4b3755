package netio

import (
	"go/types"
	"slices"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// PeerReads tells which calls read a peer's next message over the network,
// for the analysis of one package: a read of the catalogue's ReceiveCalls
// in its RemoteReceivePackages, or the method of an interface that a type
// of those packages implements with one. A service that keeps its
// WebSocket behind its own interface (type conn interface { ReadMessage()
// ...; Close() error }, for its tests) reads the same messages through it;
// an interface that no connection type implements (an inbox with an Ack
// method) reads nothing from a peer.
type PeerReads struct {
	pkg  *types.Package
	pkgs []*types.Package // the RemoteReceivePackages pkg imports, directly or not, once learned
}

// NewPeerReads returns the PeerReads of the package pkg.
func NewPeerReads(pkg *types.Package) *PeerReads { return &PeerReads{pkg: pkg} }

// Has reports whether a call of fn reads a peer's next message.
func (r *PeerReads) Has(fn *types.Func) bool {
	if catalog.ReceiveCalls.Has(fn) && fn.Pkg() != nil && slices.Contains(catalog.RemoteReceivePackages, fn.Pkg().Path()) {
		return true
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	iface, ok := sig.Recv().Type().Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for _, pkg := range r.receivePackages() {
		for named := range ssautil.ConcreteTypes(pkg) {
			if impl := ssautil.Implementation(named, iface, fn); impl != nil && catalog.ReceiveCalls.Has(impl) {
				return true
			}
		}
	}
	return false
}

func (r *PeerReads) receivePackages() []*types.Package {
	if r.pkgs != nil {
		return r.pkgs
	}
	r.pkgs = []*types.Package{}
	seen := map[*types.Package]bool{}
	var visit func(*types.Package)
	visit = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		if slices.Contains(catalog.RemoteReceivePackages, p.Path()) {
			r.pkgs = append(r.pkgs, p)
		}
		for _, imp := range p.Imports() {
			visit(imp)
		}
	}
	visit(r.pkg)
	return r.pkgs
}
