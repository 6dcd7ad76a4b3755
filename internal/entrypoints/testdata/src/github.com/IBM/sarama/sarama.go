// Package sarama is a stub of the Kafka client's consumer groups.
package sarama

import "context"

type ConsumerGroupSession interface{}

type ConsumerGroupClaim interface{}

type ConsumerGroupHandler interface {
	Setup(ConsumerGroupSession) error
	Cleanup(ConsumerGroupSession) error
	ConsumeClaim(ConsumerGroupSession, ConsumerGroupClaim) error
}

type ConsumerGroup interface {
	Consume(ctx context.Context, topics []string, handler ConsumerGroupHandler) error
}
