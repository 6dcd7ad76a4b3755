package brokerretry

import (
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
)

// connectBroker retries the broker's Connect forever, a constant two
// seconds apart (chirpstack's gateway backend): the failure is read from
// the token once it has been waited on.
func connectBroker(c mqtt.Client) {
	for { // want `this loop retries \(mqtt.Client\).Connect \(a network call: → \(mqtt.Token\).Wait\) when it fails with no bound on attempts, waiting a constant 2s`
		if token := c.Connect(); token.Wait() && token.Error() != nil {
			time.Sleep(2 * time.Second)
		} else {
			break
		}
	}
}

// subscribeEvents retries the subscription forever, a constant second
// apart (chirpstack's onConnected, on every reconnect).
func subscribeEvents(c mqtt.Client, h mqtt.MessageHandler) {
	for { // want `this loop retries \(mqtt.Client\).Subscribe \(a network call: → \(mqtt.Token\).Wait\) when it fails with no bound on attempts, waiting a constant 1s`
		if token := c.Subscribe("gateway/+/event/+", 0, h); token.Wait() && token.Error() != nil {
			time.Sleep(time.Second)
			continue
		}
		break
	}
}

// Trap: one subscription per topic, each waited on once: the loop walks
// the topics, it does not retry.
func subscribeAll(c mqtt.Client, topics []string, h mqtt.MessageHandler) error {
	for _, t := range topics {
		if token := c.Subscribe(t, 0, h); token.Wait() && token.Error() != nil {
			return token.Error()
		}
	}
	return nil
}

// Trap: a bounded retry that doubles its pause.
func connectBounded(c mqtt.Client) error {
	wait := time.Second
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		token := c.Connect()
		token.Wait()
		if err = token.Error(); err == nil {
			return nil
		}
		time.Sleep(wait)
		wait *= 2
	}
	return err
}

// Trap: waits for the client's own state, from memory.
func waitConnected(c mqtt.Client) {
	for !c.IsConnected() {
		time.Sleep(100 * time.Millisecond)
	}
}
