// Package static embeds a connector: the embedded value's method runs.
package static

import "example.com/idp/connector"

type Connector struct {
	connector.RefreshConnector
	Name string
}
