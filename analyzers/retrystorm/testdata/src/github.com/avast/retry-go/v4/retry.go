// Package retry is a stand-in for github.com/avast/retry-go/v4: the calls
// and options bhlint reads, with the library's defaults (10 attempts,
// exponential backoff combined with random jitter).
package retry

import "time"

type RetryableFunc func() error

type Config struct {
	attempts  uint
	delay     time.Duration
	delayType DelayTypeFunc
}

type DelayTypeFunc func(n uint, err error, config *Config) time.Duration

type Option func(*Config)

func Attempts(attempts uint) Option { return func(c *Config) { c.attempts = attempts } }

func UntilSucceeded() Option { return func(c *Config) { c.attempts = 0 } }

func Delay(delay time.Duration) Option { return func(c *Config) { c.delay = delay } }

func DelayType(delayType DelayTypeFunc) Option { return func(c *Config) { c.delayType = delayType } }

func FixedDelay(_ uint, _ error, config *Config) time.Duration { return config.delay }

func BackOffDelay(n uint, _ error, config *Config) time.Duration { return config.delay << n }

func Do(retryableFunc RetryableFunc, opts ...Option) error {
	config := &Config{attempts: 10, delay: 100 * time.Millisecond, delayType: BackOffDelay}
	for _, opt := range opts {
		opt(config)
	}
	var err error
	for n := uint(0); config.attempts == 0 || n < config.attempts; n++ {
		if err = retryableFunc(); err == nil {
			return nil
		}
		time.Sleep(config.delayType(n, err, config))
	}
	return err
}

func DoWithData[T any](retryableFunc func() (T, error), opts ...Option) (T, error) {
	var t T
	err := Do(func() error {
		var err error
		t, err = retryableFunc()
		return err
	}, opts...)
	return t, err
}
