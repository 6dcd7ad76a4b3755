package callers

import "exits"

// The fact crosses the package boundary.
func Stop() { // want Stop:"neverReturns"
	exits.Fail("stop")
}

func StopIf(bad bool) {
	if bad {
		exits.Quit()
	}
}

func viaMethod(s *server) { // want viaMethod:"neverReturns"
	s.halt()
}

type server struct{}

func (*server) halt() { // want halt:"neverReturns"
	exits.Crash(nil)
}

// A function value: not known statically, so it may return.
func Dynamic(f func()) {
	f()
}

func Dynamic2() {
	f := exits.Quit
	f()
}
