// Package server2 imports server: the conflict was reported there, not again here. // want package:`lanes\(\)`
package server2

import "server"

var Routes = server.Routes
