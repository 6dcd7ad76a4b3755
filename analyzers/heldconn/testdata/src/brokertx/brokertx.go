// Package brokertx writes an order and announces it on a message broker.
// The brokers' clients hand the message to a connection goroutine, so
// nothing leads statically from the publish to a socket: the catalogue's
// rows say which of their calls are requests.
package brokertx

import (
	"context"
	"database/sql"
	"time"

	"github.com/Shopify/sarama"
	"github.com/nats-io/nats.go"
	amqp "github.com/rabbitmq/amqp091-go"
)

type Orders struct {
	db       *sql.DB
	nc       *nats.Conn
	producer sarama.SyncProducer
	ch       *amqp.Channel
}

// PlaceReserved asks the inventory service over NATS request-reply before
// the commit: the transaction waits for the reply (up to two seconds).
func (o *Orders) PlaceReserved(ctx context.Context, id string) error { // want PlaceReserved:`queriesPool\(brokertx\.Orders\.db\)`
	tx, err := o.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO orders(id) VALUES ($1)", id); err != nil {
		return err
	}
	if _, err := o.nc.Request("inventory.reserve", []byte(id), 2*time.Second); err != nil { // want `transaction from \(\*sql.DB\).BeginTx is still held during \(\*nats.Conn\).Request, which waits on the network`
		return err
	}
	return tx.Commit()
}

// PlaceKafka sends to Kafka and waits for the brokers' acks while the
// transaction is open (the module moved from Shopify's path to IBM's; the
// old path is the same client).
func (o *Orders) PlaceKafka(ctx context.Context, id string) error { // want PlaceKafka:`queriesPool\(brokertx\.Orders\.db\)`
	tx, err := o.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO orders(id) VALUES ($1)", id); err != nil {
		return err
	}
	if _, _, err := o.producer.SendMessage(&sarama.ProducerMessage{Topic: "orders", Value: []byte(id)}); err != nil { // want `transaction from \(\*sql.DB\).BeginTx is still held during \(sarama.SyncProducer\).SendMessage, which waits on the network`
		return err
	}
	return tx.Commit()
}

// PlaceRabbit publishes to RabbitMQ inside the transaction.
func (o *Orders) PlaceRabbit(ctx context.Context, id string) error { // want PlaceRabbit:`queriesPool\(brokertx\.Orders\.db\)`
	tx, err := o.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO orders(id) VALUES ($1)", id); err != nil {
		return err
	}
	if err := o.ch.PublishWithContext(ctx, "orders", "placed", false, false, amqp.Publishing{Body: []byte(id)}); err != nil { // want `transaction from \(\*sql.DB\).BeginTx is still held during \(\*amqp091.Channel\).PublishWithContext, which waits on the network`
		return err
	}
	return tx.Commit()
}

// Trap: PlaceThenAnnounce publishes after the commit.
func (o *Orders) PlaceThenAnnounce(ctx context.Context, id string) error { // want PlaceThenAnnounce:`queriesPool\(brokertx\.Orders\.db\)`
	tx, err := o.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO orders(id) VALUES ($1)", id); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return o.nc.Publish("orders.placed", []byte(id))
}

// Trap: PlaceIfConnected asks the clients about their own state inside
// the transaction (the last error, whether the channel is closed, a
// message's delivery count): they read memory, not the broker.
func (o *Orders) PlaceIfConnected(ctx context.Context, id string, redelivered *nats.Msg) error { // want PlaceIfConnected:`queriesPool\(brokertx\.Orders\.db\)`
	tx, err := o.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := o.nc.LastError(); err != nil || o.ch.IsClosed() {
		return err
	}
	if meta, err := redelivered.Metadata(); err != nil || meta.NumDelivered > 3 {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO orders(id) VALUES ($1)", id); err != nil {
		return err
	}
	return tx.Commit()
}
