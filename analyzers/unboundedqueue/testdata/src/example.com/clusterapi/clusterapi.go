// Package clusterapi is a public package: its exported fan-out is an API,
// whose callers, in this module or not, may hand it any list; it is judged
// where it is, whatever clusteradmin hands it.
package clusterapi

// Ping pings each address it is handed, one goroutine each.
func Ping(addrs []string, ping func(string)) {
	for _, a := range addrs {
		go ping(a) // want `goroutine per item: this go statement starts one goroutine for every element of addrs`
	}
}
