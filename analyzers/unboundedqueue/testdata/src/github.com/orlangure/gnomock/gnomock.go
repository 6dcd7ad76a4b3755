// Package gnomock is a stand-in for the test-container library: it starts
// throw-away containers for tests.
package gnomock

type Container struct{ Host string }

func (c *Container) DefaultPort() int { return 5432 }

func Start(preset interface{}) (*Container, error) { return &Container{}, nil }
