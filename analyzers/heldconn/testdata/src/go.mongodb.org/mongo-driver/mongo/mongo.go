// Package mongo is the part of the MongoDB driver (v1) the tests use.
package mongo

import "context"

type Client struct{}

func Connect(ctx context.Context) (*Client, error) { return &Client{}, nil }

func (c *Client) Database(name string) *Database { return &Database{} }

func (c *Client) StartSession() (Session, error) { return nil, nil }

type Database struct{}

func (d *Database) Collection(name string) *Collection { return &Collection{} }

type Collection struct{}

type DeleteResult struct{ DeletedCount int64 }

type UpdateResult struct{ ModifiedCount int64 }

func (c *Collection) DeleteOne(ctx context.Context, filter any) (*DeleteResult, error) {
	return &DeleteResult{}, nil
}

func (c *Collection) UpdateMany(ctx context.Context, filter, update any) (*UpdateResult, error) {
	return &UpdateResult{}, nil
}

// SessionContext is the context a session's callback runs with: the
// session rides in it.
type SessionContext interface {
	context.Context
	Session
}

// Session is an interface in v1.
type Session interface {
	WithTransaction(ctx context.Context, fn func(ctx SessionContext) (interface{}, error)) (interface{}, error)
	EndSession(ctx context.Context)
}
