// Package resty is the part of go-resty/resty/v2 the tests use.
package resty

type Client struct{}

type Response struct{}

func New() *Client { return &Client{} }

func (c *Client) SetRetryCount(count int) *Client { return c }

func (c *Client) SetBaseURL(url string) *Client { return c }

func (c *Client) AddRetryCondition(f func(*Response, error) bool) *Client { return c }
