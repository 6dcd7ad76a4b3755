// Package membership stubs a cluster membership ring (temporal's
// common/membership): the hosts of a service that are running now.
package membership

type HostInfo interface{ GetAddress() string }

type ServiceResolver interface {
	AvailableMembers() []HostInfo
}

type Monitor interface {
	GetResolver(service string) (ServiceResolver, error)
}
