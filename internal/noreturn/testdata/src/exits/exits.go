package exits

import (
	"errors"
	"log"
	"os"
)

func Fail(msg string) { // want Fail:"neverReturns"
	log.Fatal(msg)
}

func Quit() { // want Quit:"neverReturns"
	os.Exit(2)
}

func Crash(err error) { // want Crash:"neverReturns"
	panic(err)
}

func Serve() { // want Serve:"neverReturns"
	for {
		step()
	}
}

// Through another function of the package, declared after it.
func Abort() { // want Abort:"neverReturns"
	crashLater()
}

func crashLater() { // want crashLater:"neverReturns"
	panic(errors.New("later"))
}

func step() {}

// Look-alikes: each returns on some path.

func FailIf(bad bool) {
	if bad {
		log.Fatal("bad")
	}
}

func ServeUntil(stop chan struct{}) {
	for {
		select {
		case <-stop:
			return
		default:
			step()
		}
	}
}

func Recover() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("recovered")
		}
	}()
	return nil
}

// A literal that exits does not make its enclosing function exit.
func Later() func() {
	return func() { os.Exit(1) }
}

// Two functions that only call each other are taken to return, as the
// x/tools pass takes them: the cycle is broken where it is entered.
func ping(n int) {
	pong(n)
}

func pong(n int) {
	ping(n)
}
