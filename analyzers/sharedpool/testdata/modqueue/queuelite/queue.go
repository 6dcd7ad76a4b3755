// Package queuelite is a task queue library shaped as backlite: its client
// polls a table on the pool it is handed, from goroutines it starts.
package queuelite

import (
	"context"
	"database/sql"
	"time"
)

type ClientConfig struct {
	DB         *sql.DB
	NumWorkers int
}

type Client struct {
	db      *sql.DB
	workers int
}

func NewClient(cfg ClientConfig) (*Client, error) {
	return &Client{db: cfg.DB, workers: cfg.NumWorkers}, nil
}

// Start polls for tasks until ctx ends.
func (c *Client) Start(ctx context.Context) {
	go c.poll(ctx)
}

func (c *Client) poll(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
		rows, err := c.db.QueryContext(ctx, "UPDATE tasks SET claimed = 1 WHERE id IN (SELECT id FROM tasks LIMIT 10) RETURNING id")
		if err == nil {
			rows.Close()
		}
	}
}
