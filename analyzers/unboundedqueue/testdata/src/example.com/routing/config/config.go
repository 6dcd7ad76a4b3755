// Package config stubs a service's configuration package (alertmanager's
// config): the types its configuration file is loaded into.
package config

import "example.com/routing/cfgparser"

type InhibitRule struct{ TargetURL string }

// Map is a handle on one block of the configuration (maddy's config.Map):
// a module's Init is handed one.
type Map struct{ nodes []Node }

// Node is one directive of the configuration: the parser's type, under
// the configuration package's name.
type Node = cfgparser.Node

func (m *Map) Process() ([]Node, error) { return m.nodes, nil }
