// Package redisretry retries go-redis commands and reads subscriptions.
package redisretry

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
)

// ---- positives ----

// receiveForever: once the subscription's connection is closed for good,
// ReceiveMessage fails at once every time.
func receiveForever(ctx context.Context, sub *redis.PubSub, handle func(*redis.Message)) {
	for { // want `this loop calls \(\*redis.PubSub\).ReceiveMessage again at once when it fails, with no pause and no way out on an error`
		msg, err := sub.ReceiveMessage(ctx)
		if err != nil {
			log.Printf("receive: %v", err)
			continue
		}
		handle(msg)
	}
}

// getThreeTimes retries a GET at once.
func getThreeTimes(ctx context.Context, rdb *redis.Client, key string) (string, error) {
	var err error
	for i := 0; i < 3; i++ { // want `this loop retries \(redis.cmdable\).Get when it fails with no pause between attempts`
		var v string
		if v, err = rdb.Get(ctx, key).Result(); err == nil {
			return v, nil
		}
	}
	return "", err
}

// setNXForever spins on a lock: a failed SETNX goes round again at once
// (and so does a lock held by another, which is not a retry).
func setNXForever(ctx context.Context, rdb *redis.Client) {
	for { // want `this loop calls \(redis.cmdable\).SetNX again at once when it fails`
		ok, err := rdb.SetNX(ctx, "lock", "me", time.Minute).Result()
		if err != nil {
			continue
		}
		if ok {
			return
		}
	}
}

// watchOnAnyError: bounded, but it goes round at once on every error, a
// connection refused as much as a lost race.
func watchOnAnyError(ctx context.Context, rdb *redis.Client, txf func(*redis.Tx) error) error {
	var err error
	for i := 0; i < 5; i++ { // want `this loop retries \(\*redis.Client\).Watch when it fails with no pause between attempts`
		if err = rdb.Watch(ctx, txf, "key"); err == nil {
			return nil
		}
	}
	return err
}

// watchUntilNoConflict goes round only on the conflict, but for ever.
func watchUntilNoConflict(ctx context.Context, rdb *redis.Client, txf func(*redis.Tx) error) error {
	for { // want `this loop retries \(\*redis.Client\).Watch when it fails with no bound on attempts`
		err := rdb.Watch(ctx, txf, "key")
		if err == redis.TxFailedErr {
			continue
		}
		return err
	}
}

// watchOnConflictOrNil: a key not found (redis.Nil) is no conflict, and
// goes round at once too.
func watchOnConflictOrNil(ctx context.Context, rdb *redis.Client, txf func(*redis.Tx) error) error {
	var err error
	for i := 0; i < 5; i++ { // want `this loop retries \(\*redis.Client\).Watch when it fails with no pause between attempts`
		err = rdb.Watch(ctx, txf, "key")
		if err == nil {
			return nil
		}
		if errors.Is(err, redis.TxFailedErr) || err == redis.Nil {
			continue
		}
		return err
	}
	return err
}

// ---- traps ----

// watchSwitch is go-redis's optimistic lock: bounded, and it goes round
// only when another writer changed the key (TxFailedErr); any other error
// returns. A lost race on the data, with the server up: silent.
func watchSwitch(ctx context.Context, rdb *redis.Client, txf func(*redis.Tx) error) error {
	const maxRetries = 5
	for i := 0; i < maxRetries; i++ {
		err := rdb.Watch(ctx, txf, "key")
		switch err {
		case redis.TxFailedErr:
			continue
		default:
			return err
		}
	}
	return nil
}

// watchLikeTheDocs: the same, written as go-redis's example does.
func watchLikeTheDocs(ctx context.Context, rdb *redis.Client, txf func(*redis.Tx) error) error {
	for i := 0; i < 3; i++ {
		err := rdb.Watch(ctx, txf, "key")
		if err == nil {
			return nil
		}
		if errors.Is(err, redis.TxFailedErr) {
			continue
		}
		return err
	}
	return errors.New("increment reached maximum number of retries")
}

// receiveUntilDone leaves when its context ends.
func receiveUntilDone(ctx context.Context, sub *redis.PubSub, handle func(*redis.Message)) {
	for ctx.Err() == nil {
		msg, err := sub.ReceiveMessage(ctx)
		if err != nil {
			continue
		}
		handle(msg)
	}
}

// receiveWithTimeout: ReceiveTimeout waits up to a second itself.
func receiveWithTimeout(ctx context.Context, sub *redis.PubSub) {
	for {
		m, err := sub.ReceiveTimeout(ctx, time.Second)
		if err != nil {
			continue
		}
		log.Print(m)
	}
}

// popBlocking: BLPOP waits on the server up to its timeout.
func popBlocking(ctx context.Context, rdb *redis.Client) {
	for {
		v, err := rdb.BLPop(ctx, 5*time.Second, "jobs").Result()
		if err != nil {
			continue
		}
		log.Print(v)
	}
}

// receivePaced waits after a failure.
func receivePaced(ctx context.Context, sub *redis.PubSub) { // want receivePaced:"sleeps\\(constant\\)"
	for {
		msg, err := sub.ReceiveMessage(ctx)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		log.Print(msg.Payload)
	}
}

// publishEach publishes each event once; a failed one is skipped.
func publishEach(ctx context.Context, rdb *redis.Client, events <-chan string) {
	for ev := range events {
		if err := rdb.Publish(ctx, "events", ev).Err(); err != nil {
			continue
		}
	}
}
