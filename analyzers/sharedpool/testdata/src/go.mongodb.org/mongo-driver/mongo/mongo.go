// Package mongo is the part of MongoDB's Go driver the tests use.
package mongo

import "context"

type Client struct{}

type Database struct{ client *Client }

type Collection struct{ db *Database }

type SingleResult struct{}

type DeleteResult struct{}

func Connect(ctx context.Context, uri string) (*Client, error) { return &Client{}, nil }

func (c *Client) Database(name string) *Database { return &Database{client: c} }

func (d *Database) Collection(name string) *Collection { return &Collection{db: d} }

func (c *Collection) FindOne(ctx context.Context, filter any) *SingleResult { return nil }

func (c *Collection) DeleteMany(ctx context.Context, filter any) (*DeleteResult, error) {
	return nil, nil
}
