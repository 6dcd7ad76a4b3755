// Package configured declares its lane in .bhlint.yml: Charge is an entry
// point of lane billing without a directive.
package configured

import "net/http"

var Gateway *http.Client

func Charge() {
	Gateway.Get("https://gateway.example.com/charge")
}
