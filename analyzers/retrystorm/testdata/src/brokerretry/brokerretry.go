// Package brokerretry retries calls to message brokers and ZooKeeper,
// whose clients hand each request to a connection goroutine.
package brokerretry

import (
	"path"
	"time"

	"github.com/IBM/sarama"
	"github.com/go-zookeeper/zk"
	"github.com/nats-io/nats.go"
)

// publishUntilAcked publishes again at once on every failure: while the
// stream has no quorum, every instance spins on it.
func publishUntilAcked(js nats.JetStream, subj string, data []byte) {
	for { // want `this loop retries \(nats.JetStream\).Publish when it fails with no bound on attempts, with no pause between attempts`
		if _, err := js.Publish(subj, data); err == nil {
			return
		}
	}
}

// connectProducer waits a constant second between attempts to reach the
// brokers, forever.
func connectProducer(addrs []string, cfg *sarama.Config) sarama.SyncProducer {
	for { // want `this loop retries sarama.NewSyncProducer when it fails with no bound on attempts, waiting a constant 1s`
		p, err := sarama.NewSyncProducer(addrs, cfg)
		if err == nil {
			return p
		}
		time.Sleep(time.Second)
	}
}

// Trap: waitForDrain polls the client's own count of pending messages.
func waitForDrain(sub *nats.Subscription) {
	for {
		if n, _, err := sub.Pending(); err == nil && n == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Trap: reportUntilQuiet re-reads the connection's last error, from memory.
func reportUntilQuiet(nc *nats.Conn) {
	for nc.LastError() != nil {
		time.Sleep(time.Millisecond)
	}
}

// Trap: createPath makes a missing parent and goes round; it leaves on
// any other error. ZooKeeper answered about the tree, not about itself.
func createPath(conn *zk.Conn, p string, data []byte) error {
	for {
		_, err := conn.Create(p, data, 0, nil)
		if err == nil || err == zk.ErrNodeExists {
			return nil
		}
		if err != zk.ErrNoNode {
			return err
		}
		if err := createPath(conn, path.Dir(p), nil); err != nil {
			return err
		}
	}
}
