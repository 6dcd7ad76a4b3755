// Package sarama is a stub of github.com/Shopify/sarama, the import path
// before the module moved to github.com/IBM/sarama: a synchronous
// producer, whose broker goroutine sends and waits for the acks.
package sarama

type ProducerMessage struct {
	Topic string
	Value []byte
}

type SyncProducer interface {
	SendMessage(msg *ProducerMessage) (partition int32, offset int64, err error)
	Close() error
}
