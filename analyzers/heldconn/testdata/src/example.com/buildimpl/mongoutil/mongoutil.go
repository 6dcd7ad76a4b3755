// Package mongoutil implements txlib.Tx over a MongoDB session, keeping the // want package:`implements\(holds \(example.com/buildimpl/txlib.Tx\).Transaction by \(\*mongoutil.mongoTx\).Transaction\)`
// transaction runner in a func field it fills at start-up.
package mongoutil

import (
	"context"

	"go.mongodb.org/mongo-driver/mongo"

	"example.com/buildimpl/txlib"
)

type mongoTx struct {
	client *mongo.Client
	tx     func(context.Context, func(ctx context.Context) error) error
}

func NewMongoTx(client *mongo.Client) txlib.Tx {
	m := &mongoTx{client: client}
	m.tx = func(ctx context.Context, fn func(ctx context.Context) error) error {
		sess, err := m.client.StartSession()
		if err != nil {
			return err
		}
		defer sess.EndSession(ctx)
		_, err = sess.WithTransaction(ctx, func(sessCtx mongo.SessionContext) (interface{}, error) {
			return nil, fn(sessCtx)
		})
		return err
	}
	return m
}

func (m *mongoTx) Transaction(ctx context.Context, fn func(ctx context.Context) error) error { // want Transaction:`holdsDuringCallback\(\[2\]\)`
	return m.tx(ctx, fn)
}
