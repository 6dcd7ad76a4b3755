// Package mqtt is a stub of github.com/eclipse/paho.mqtt.golang: a
// publish returns a token at once, and the wait is on the token.
package mqtt

import "time"

type Token interface {
	Wait() bool
	WaitTimeout(time.Duration) bool
	Error() error
}

type Message interface {
	Topic() string
	Payload() []byte
}

// MessageHandler is called by the client once for every message
// delivered on the topics it was subscribed with.
type MessageHandler func(Client, Message)

type Client interface {
	Publish(topic string, qos byte, retained bool, payload interface{}) Token
	Subscribe(topic string, qos byte, callback MessageHandler) Token
}
