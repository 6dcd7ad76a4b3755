// Package cfgparser parses the configuration file into nodes; the config
// package names its type (maddy's config.Node = parser.Node).
package cfgparser

// Node is one directive of the configuration, with its arguments.
type Node struct {
	Name string
	Args []string
}
