// Package mqtt is a stub of github.com/eclipse/paho.mqtt.golang: a request
// returns a token at once, and the wait is on the token.
package mqtt

import "time"

type Token interface {
	Wait() bool
	WaitTimeout(time.Duration) bool
	Error() error
}

type Message interface{ Payload() []byte }

type MessageHandler func(Client, Message)

type Client interface {
	Connect() Token
	Subscribe(topic string, qos byte, callback MessageHandler) Token
	IsConnected() bool
}
