// Package rediscmd: a go-redis command fails through its Cmd's Result or
// Err; the retried operation is the command, a network call.
package rediscmd

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/redis/go-redis/v9"
)

func getEvery100ms(ctx context.Context, rdb *redis.Client, key string) (string, error) {
	var err error
	for i := 0; i < 5; i++ { // want `this loop retries \(redis.cmdable\).Get when it fails waiting a constant 100ms`
		var v string
		v, err = rdb.Get(ctx, key).Result()
		if err == nil {
			return v, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return "", err
}

func pingUntilUp(ctx context.Context, rdb *redis.Client) {
	for { // want `this loop retries \(redis.cmdable\).Ping when it fails with no bound on attempts`
		if err := rdb.Ping(ctx).Err(); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// getWithBackoff: bounded, growing and jittered: silent.
func getWithBackoff(ctx context.Context, rdb *redis.Client, key string) (string, error) {
	delay := 50 * time.Millisecond
	var err error
	for i := 0; i < 5; i++ {
		var v string
		if v, err = rdb.Get(ctx, key).Result(); err == nil {
			return v, nil
		}
		time.Sleep(delay + time.Duration(rand.Int64N(int64(delay))))
		delay *= 2
	}
	return "", err
}

type queueClient struct {
	Redis  *redis.Client
	Logger interface{ Debugf(string, ...any) }
}

// pingTenTimesConstant: bounded, but a constant 1s between network attempts.
func pingTenTimesConstant(c *queueClient) error {
	var err error
	for i := 0; i < 10; i++ { // want `this loop retries \(redis.cmdable\).Ping when it fails waiting a constant 1s`
		err = c.Redis.Ping(context.Background()).Err()
		if err != nil {
			c.Logger.Debugf("retrying in %v", time.Duration(i)*time.Second)
			time.Sleep(1 * time.Second)
			continue
		}
		return nil
	}
	return err
}

// pingTenTimesWithJitteredBackoff: the same promoted Err, bounded, with a
// growing, jittered pause: silent.
func pingTenTimesWithJitteredBackoff(c *queueClient) error {
	var err error
	delay := 100 * time.Millisecond
	for i := 0; i < 10; i++ {
		if err = c.Redis.Ping(context.Background()).Err(); err == nil {
			return nil
		}
		time.Sleep(delay + time.Duration(rand.Int64N(int64(delay))))
		delay *= 2
	}
	return err
}
