// Package parkorder: which call a function parks through is in its fact, and
// so in the messages of every importer. It must not depend on the order in
// which the fixed point visits the functions: Enqueue calls Forward, which
// parks only through Push, before it calls Push itself.
package parkorder

var queue = make(chan int)

func Enqueue1() { // want Enqueue1:`parksOnSend\(queue via parkorder.Push\)`
	Forward()
	Push()
}

func Enqueue2() { // want Enqueue2:`parksOnSend\(queue via parkorder.Push\)`
	Forward()
	Push()
}

func Enqueue3() { // want Enqueue3:`parksOnSend\(queue via parkorder.Push\)`
	Forward()
	Push()
}

func Forward() { // want Forward:`parksOnSend\(queue via parkorder.Push\)`
	Push()
}

func Push() { // want Push:`parksOnSend\(queue\)`
	queue <- 1
}
