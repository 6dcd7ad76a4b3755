// Package mqtt is a stub of github.com/eclipse/paho.mqtt.golang: a
// publish returns a token at once, and the wait is on the token.
package mqtt

import "time"

type Token interface {
	Wait() bool
	WaitTimeout(time.Duration) bool
	Error() error
}

type Client interface {
	Publish(topic string, qos byte, retained bool, payload interface{}) Token
}
